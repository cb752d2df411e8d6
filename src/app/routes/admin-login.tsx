export function AdminLoginPage() {
  return (
    <main className="mx-auto grid min-h-dvh max-w-content place-content-center gap-3 px-6 text-center">
      <title>Admin login | Client Portal</title>
      <h1 className="text-3xl font-semibold">Admin login</h1>
      <p className="text-muted-foreground">Firm staff sign in here to manage users, documents and the website.</p>
    </main>
  );
}
