export function ProfilePage() {
  return (
    <main className="mx-auto grid min-h-dvh max-w-content place-content-center gap-3 px-6 text-center">
      <title>Signing you in | Client Portal</title>
      <h1 className="text-3xl font-semibold">Signing you in</h1>
      <p className="text-muted-foreground">This page completes the Google sign-in and takes you to your dashboard.</p>
    </main>
  );
}
