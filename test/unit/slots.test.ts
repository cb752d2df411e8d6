/*
 * Slot computation (server/domains/appointments/slots.ts) on a table of cases: ordinary days,
 * daylight-saving changes in Chicago and Berlin (skipped and repeated wall times read as Postgres
 * reads them), buffers, notice, days off, overlapping weekly ranges, the horizon and the query window.
 */
import { describe, expect, it } from "vitest";
import { isoWeekday, isoWithOffset, localDate, wallTimeToInstant } from "../../server/domains/appointments/firm-clock.ts";
import { type BookingRules, freeSlots, type Interval, type SlotQuery, type WeeklyHours } from "../../server/domains/appointments/slots.ts";

const h = (hours: number, minutes = 0) => hours * 60 + minutes;
const weekdays = (start: number, end: number): WeeklyHours[] => [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start_minute: start, end_minute: end }));
const CHICAGO_9_TO_5: BookingRules = { timeZone: "America/Chicago", weekly: weekdays(h(9), h(17)), daysOff: [], minNoticeHours: 0, horizonDays: 60 };
const at = (iso: string) => new Date(iso);
const busy = (start: string, end: string): Interval => ({ start: at(start), end: at(end) });

type Case = {
  name: string;
  query: Omit<Partial<SlotQuery>, "rules"> & { rules?: Partial<BookingRules> };
  /** Start instants (UTC) of the slots expected, in order. */
  starts: string[];
  /** Each slot's length in minutes (default 60). */
  length?: number;
};

// "now" is Sunday 2026-03-01 00:00 in Chicago unless a case says otherwise; each case looks at one day.
const NOW = "2026-03-01T06:00:00Z";
const day = (from: string, to: string) => ({ from: at(from), to: at(to) });

const CASES: Case[] = [
  {
    name: "an ordinary Wednesday: 9:00 to 16:00 CST every half hour",
    query: day("2026-03-04T06:00:00Z", "2026-03-05T06:00:00Z"),
    starts: Array.from({ length: 15 }, (_, i) => new Date(Date.parse("2026-03-04T15:00:00Z") + i * 30 * 60_000).toISOString()),
  },
  {
    name: "Chicago spring-forward day (2026-03-08): 00:00-06:00 holds five real hours, 02:xx does not exist",
    query: { rules: { weekly: [{ weekday: 7, start_minute: 0, end_minute: h(6) }] }, ...day("2026-03-08T06:00:00Z", "2026-03-08T12:00:00Z") },
    // 00:00, 00:30, 01:00, 01:30 CST (UTC-6), then 03:00 ... 05:00 CDT (UTC-5).
    starts: ["06:00", "06:30", "07:00", "07:30", "08:00", "08:30", "09:00", "09:30", "10:00"].map((t) => `2026-03-08T${t}:00.000Z`),
  },
  {
    name: "Chicago spring-forward day: a range starting in the gap starts where Postgres puts 02:30 (03:30 CDT)",
    query: {
      durationMinutes: 30,
      rules: { weekly: [{ weekday: 7, start_minute: h(2, 30), end_minute: h(4) }] },
      ...day("2026-03-08T06:00:00Z", "2026-03-09T06:00:00Z"),
    },
    starts: ["2026-03-08T08:30:00.000Z"],
    length: 30,
  },
  {
    name: "Chicago fall-back day (2026-11-01): 00:00-04:00 holds five real hours, 01:xx twice",
    query: {
      now: at("2026-10-25T05:00:00Z"),
      rules: { weekly: [{ weekday: 7, start_minute: 0, end_minute: h(4) }] },
      ...day("2026-11-01T05:00:00Z", "2026-11-01T11:00:00Z"),
    },
    // 00:00, 00:30, 01:00, 01:30 CDT (UTC-5), then 01:00 ... 03:00 CST (UTC-6).
    starts: ["05:00", "05:30", "06:00", "06:30", "07:00", "07:30", "08:00", "08:30", "09:00"].map((t) => `2026-11-01T${t}:00.000Z`),
  },
  {
    name: "Chicago fall-back day: a range starting at a repeated time starts at the later one (01:30 CST), as in Postgres",
    query: {
      now: at("2026-10-25T05:00:00Z"),
      durationMinutes: 30,
      rules: { weekly: [{ weekday: 7, start_minute: h(1, 30), end_minute: h(2) }] },
      ...day("2026-11-01T05:00:00Z", "2026-11-02T06:00:00Z"),
    },
    starts: ["2026-11-01T07:30:00.000Z"],
    length: 30,
  },
  {
    name: "9:00 the Saturday before and the Sunday of the fall-back in Chicago: 14:00Z (CDT), then 15:00Z (CST)",
    query: {
      now: at("2026-10-25T05:00:00Z"),
      durationMinutes: 480,
      rules: { weekly: [6, 7].map((weekday) => ({ weekday, start_minute: h(9), end_minute: h(17) })) },
      ...day("2026-10-31T05:00:00Z", "2026-11-02T06:00:00Z"),
    },
    starts: ["2026-10-31T14:00:00.000Z", "2026-11-01T15:00:00.000Z"],
    length: 480,
  },
  {
    name: "Berlin spring-forward day (2026-03-29): 01:00-04:00 holds two real hours",
    query: {
      rules: { timeZone: "Europe/Berlin", weekly: [{ weekday: 7, start_minute: h(1), end_minute: h(4) }] },
      ...day("2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z"),
    },
    // 01:00, 01:30 CET (UTC+1), then 03:00 CEST (UTC+2).
    starts: ["2026-03-29T00:00:00.000Z", "2026-03-29T00:30:00.000Z", "2026-03-29T01:00:00.000Z"],
  },
  {
    name: "Berlin fall-back day (2026-10-25): 01:00-04:00 holds four real hours",
    query: {
      now: at("2026-10-20T00:00:00Z"),
      rules: { timeZone: "Europe/Berlin", weekly: [{ weekday: 7, start_minute: h(1), end_minute: h(4) }] },
      ...day("2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z"),
    },
    starts: [
      "2026-10-24T23:00:00.000Z",
      "2026-10-24T23:30:00.000Z",
      "2026-10-25T00:00:00.000Z",
      "2026-10-25T00:30:00.000Z",
      "2026-10-25T01:00:00.000Z",
      "2026-10-25T01:30:00.000Z",
      "2026-10-25T02:00:00.000Z",
    ],
  },
  {
    name: "a booking's range (with its buffer) blocks the slots that would overlap it; touching is fine",
    query: { busy: [busy("2026-03-04T16:00:00Z", "2026-03-04T17:15:00Z")], ...day("2026-03-04T15:00:00Z", "2026-03-04T18:30:00Z") },
    // 9:00 free (ends 10:00 when the booking starts), 9:30 to 11:00 blocked by 10:00-11:15, 11:30 free.
    starts: ["2026-03-04T15:00:00.000Z", "2026-03-04T17:30:00.000Z", "2026-03-04T18:00:00.000Z"],
  },
  {
    name: "the new meeting's own buffer must not run into a booking either",
    query: {
      bufferMinutes: 30,
      busy: [busy("2026-03-04T17:00:00Z", "2026-03-04T18:00:00Z")],
      ...day("2026-03-04T15:00:00Z", "2026-03-04T19:00:00Z"),
    },
    // 9:00 (ends 10:00, free until 10:30 < 11:00) and 9:30 (10:30 + 30 = 11:00, touching) fit; 10:00 and 10:30 do not; 12:00 and 12:30 do.
    starts: ["2026-03-04T15:00:00.000Z", "2026-03-04T15:30:00.000Z", "2026-03-04T18:00:00.000Z", "2026-03-04T18:30:00.000Z"],
  },
  {
    name: "minimum notice: with 24 hours' notice at Wednesday 12:00, Thursday from 12:00",
    query: { now: at("2026-03-04T18:00:00Z"), rules: { minNoticeHours: 24 }, ...day("2026-03-04T06:00:00Z", "2026-03-05T20:00:00Z") },
    starts: ["2026-03-05T18:00:00.000Z", "2026-03-05T18:30:00.000Z", "2026-03-05T19:00:00.000Z", "2026-03-05T19:30:00.000Z"],
  },
  {
    name: "no notice: a slot starting right now is still offered, one that started is not",
    query: { now: at("2026-03-04T18:00:00Z"), ...day("2026-03-04T17:00:00Z", "2026-03-04T19:00:00Z") },
    starts: ["2026-03-04T18:00:00.000Z", "2026-03-04T18:30:00.000Z"],
  },
  {
    name: "days off have no slots",
    query: { durationMinutes: 480, rules: { daysOff: ["2026-03-05"] }, ...day("2026-03-04T06:00:00Z", "2026-03-07T06:00:00Z") },
    starts: ["2026-03-04T15:00:00.000Z", "2026-03-06T15:00:00.000Z"],
    length: 480,
  },
  {
    name: "overlapping and touching weekly ranges merge: 9-12, 11-14 and 14-15 are 9-15, without duplicates",
    query: {
      durationMinutes: 90,
      rules: {
        weekly: [
          { weekday: 3, start_minute: h(11), end_minute: h(14) },
          { weekday: 3, start_minute: h(9), end_minute: h(12) },
          { weekday: 3, start_minute: h(14), end_minute: h(15) },
        ],
      },
      ...day("2026-03-04T06:00:00Z", "2026-03-05T06:00:00Z"),
    },
    // 9:00 ... 13:30 CST; 11:00-12:30 spans the seam between the first two ranges.
    starts: ["15:00", "15:30", "16:00", "16:30", "17:00", "17:30", "18:00", "18:30", "19:00", "19:30"].map((t) => `2026-03-04T${t}:00.000Z`),
    length: 90,
  },
  {
    name: "separate ranges step from their own starts, and a meeting never crosses a break",
    query: {
      rules: {
        weekly: [
          { weekday: 3, start_minute: h(9), end_minute: h(10, 30) },
          { weekday: 3, start_minute: h(13, 15), end_minute: h(14, 15) },
        ],
      },
      ...day("2026-03-04T06:00:00Z", "2026-03-05T06:00:00Z"),
    },
    starts: ["2026-03-04T15:00:00.000Z", "2026-03-04T15:30:00.000Z", "2026-03-04T19:15:00.000Z"],
  },
  {
    name: "a range to the end of the day (24:00)",
    query: { rules: { weekly: [{ weekday: 3, start_minute: h(22), end_minute: h(24) }] }, ...day("2026-03-04T06:00:00Z", "2026-03-06T06:00:00Z") },
    starts: ["2026-03-05T04:00:00.000Z", "2026-03-05T04:30:00.000Z", "2026-03-05T05:00:00.000Z"],
  },
  {
    name: "the horizon: with 3 days from Sunday, Wednesday is the last bookable day",
    query: { durationMinutes: 480, rules: { horizonDays: 3 } },
    starts: ["2026-03-02T15:00:00.000Z", "2026-03-03T15:00:00.000Z", "2026-03-04T15:00:00.000Z"],
    length: 480,
  },
  {
    name: "the query window: only slots starting in [from, to)",
    query: day("2026-03-04T16:00:00Z", "2026-03-04T17:00:00Z"),
    starts: ["2026-03-04T16:00:00.000Z", "2026-03-04T16:30:00.000Z"],
  },
  {
    name: "a window past the horizon has nothing",
    query: { rules: { horizonDays: 10 }, ...day("2026-03-20T06:00:00Z", "2026-03-21T06:00:00Z") },
    starts: [],
  },
];

function run(query: Case["query"]): Interval[] {
  return freeSlots({
    durationMinutes: 60,
    bufferMinutes: 0,
    busy: [],
    now: at(NOW),
    ...query,
    rules: { ...CHICAGO_9_TO_5, ...query.rules },
  });
}

describe("freeSlots", () => {
  it.each(CASES)("$name", ({ query, starts, length = 60 }) => {
    const slots = run(query);
    expect(slots.map((slot) => slot.start.toISOString())).toEqual(starts);
    for (const slot of slots) expect(slot.end.getTime() - slot.start.getTime()).toBe(length * 60_000);
  });
});

describe("wall times and the time zone database", () => {
  // What Postgres 15 and PGlite answer for `'<date> <time>'::timestamp AT TIME ZONE '<zone>'`
  // (checked against both in test/server/self-booking.test.ts).
  it.each([
    ["2026-03-08", h(2, 30), "America/Chicago", "2026-03-08T08:30:00.000Z"],
    ["2026-11-01", h(1, 30), "America/Chicago", "2026-11-01T07:30:00.000Z"],
    ["2026-03-29", h(2, 30), "Europe/Berlin", "2026-03-29T01:30:00.000Z"],
    ["2026-10-25", h(2, 30), "Europe/Berlin", "2026-10-25T01:30:00.000Z"],
    ["2026-07-01", h(9), "America/Chicago", "2026-07-01T14:00:00.000Z"],
    ["2026-01-15", h(24), "America/Chicago", "2026-01-16T06:00:00.000Z"],
    ["2026-06-01", h(9, 15), "Asia/Kolkata", "2026-06-01T03:45:00.000Z"],
  ] as const)("%s at minute %i in %s is %s", (date, minute, zone, expected) => {
    expect(wallTimeToInstant(date, minute, zone).toISOString()).toBe(expected);
  });

  it("writes instants with the zone's offset of that moment", () => {
    expect(isoWithOffset(at("2026-03-08T08:30:00Z"), "America/Chicago")).toBe("2026-03-08T03:30:00-05:00");
    expect(isoWithOffset(at("2026-03-08T07:30:00Z"), "America/Chicago")).toBe("2026-03-08T01:30:00-06:00");
    expect(isoWithOffset(at("2026-06-01T03:45:00Z"), "Asia/Kolkata")).toBe("2026-06-01T09:15:00+05:30");
    expect(isoWithOffset(at("2026-01-01T00:00:00Z"), "UTC")).toBe("2026-01-01T00:00:00+00:00");
  });

  it("knows local dates and ISO weekdays", () => {
    expect(localDate(at("2026-03-04T05:59:00Z"), "America/Chicago")).toBe("2026-03-03");
    expect(localDate(at("2026-03-04T06:00:00Z"), "America/Chicago")).toBe("2026-03-04");
    expect(isoWeekday("2026-03-02")).toBe(1);
    expect(isoWeekday("2026-03-08")).toBe(7);
  });
});
