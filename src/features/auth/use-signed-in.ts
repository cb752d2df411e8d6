import { useEffect, useState } from "react";
import { publicQuery } from "@/lib/public-query.ts";

/** Who is signed in, as far as the public site needs to know: which dashboard is theirs. */
type SignedInAs = "client" | "admin" | null;

/**
 * Who is signed in, for the public site, which renders without React Query (see
 * lib/public-query.ts); the portals use `useCurrentUser`. Asked on every visit of the page, so it
 * follows a login or logout elsewhere in the app. Null until the answer comes or when the check fails.
 */
export function useSignedIn(): SignedInAs {
  const [signedIn, setSignedIn] = useState<SignedInAs>(null);

  useEffect(() => {
    let current = true;
    publicQuery<{ is_admin?: unknown } | null>("auth.session").then(
      (user) => {
        if (current) setSignedIn(user === null ? null : user.is_admin === true ? "admin" : "client");
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);

  return signedIn;
}
