import { errorDetail, httpStatus } from "@/lib/api-error.ts";

/**
 * A booking or a move the server refused with its reason: the time was taken, the client holds as
 * many upcoming bookings as the firm allows (409), or changed bookings too often (429).
 */
export function isBookingRefusal(err: unknown): boolean {
  const status = httpStatus(err);
  return (status === 409 || status === 429) && errorDetail(err) !== undefined;
}

/** What the booking dialog says about a refusal, or null. */
export function bookingRefusal(err: unknown): string | null {
  return isBookingRefusal(err) ? errorDetail(err)! : null;
}
