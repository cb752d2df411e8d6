import { useEffect, useState } from "react";
import { followPersonLanguage } from "@/lib/i18n.ts";
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
    publicQuery<{ is_admin?: unknown; language?: unknown } | null>("auth.session").then(
      (user) => {
        if (!current) return;
        setSignedIn(user === null ? null : user.is_admin === true ? "admin" : "client");
        followPersonLanguage(user);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);

  return signedIn;
}
