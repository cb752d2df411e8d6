import { useEffect } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { errorDetail, httpStatus } from "./api-error.ts";

const ADMIN_ACCESS_REQUIRED = "Admin access required";

/**
 * What the admin pages do when their data does not load: without an admin
 * session (403, or 401 once it has expired) they say Admin access required and go to /admin;
 * anything else says Failed to load admin data. Toast ids keep parallel failures to one toast.
 */
export function useAdminLoadFailure({ error, isFetching }: { error: unknown; isFetching: boolean }) {
  const navigate = useNavigate();
  // An error cached from an earlier session is not this one's answer: wait for the refetch.
  const failure = isFetching ? null : error;
  useEffect(() => {
    const error = failure;
    if (!error) return;
    const status = httpStatus(error);
    // A staff member's missing right is a 403 that names it: they stay signed in, and are told.
    if (isMissingRight(error)) {
      toast.error(errorDetail(error), { id: "admin-right-missing" });
    } else if (status === 401 || status === 403) {
      toast.error(ADMIN_ACCESS_REQUIRED, { id: "admin-access-required" });
      void navigate("/admin", { replace: true, state: { skipSessionCheck: true } });
    } else {
      toast.error("Failed to load admin data", { id: "admin-load-failed" });
    }
  }, [failure, navigate]);
}

/**
 * Whether a failed admin load should be shown in place with a Retry button: any failure but the
 * missing admin session, after which useAdminLoadFailure leaves for /admin.
 */
export function isRetryableAdminLoadError(error: unknown): boolean {
  if (!error) return false;
  if (isMissingRight(error)) return true;
  const status = httpStatus(error);
  return status !== 401 && status !== 403;
}

/** A 403 of a signed-in staff member without the right (docs/security.md, "Staff roles and rights"), not of a missing admin session. */
function isMissingRight(error: unknown): boolean {
  return httpStatus(error) === 403 && errorDetail(error) !== ADMIN_ACCESS_REQUIRED;
}
