import { useEffect, useState } from "react";
import { publicQuery } from "@/lib/public-query.ts";

/**
 * Whether a user is signed in, for the public site, which renders without React Query (see
 * lib/public-query.ts); the portals use `useCurrentUser`. Asked on every visit of the page, so it
 * follows a login or logout elsewhere in the app. False until the answer comes or when the check fails.
 */
export function useSignedIn(): boolean {
  const [signedIn, setSignedIn] = useState(false);

  useEffect(() => {
    let current = true;
    publicQuery<unknown>("auth.session").then(
      (user) => {
        if (current) setSignedIn(user !== null);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);

  return signedIn;
}
