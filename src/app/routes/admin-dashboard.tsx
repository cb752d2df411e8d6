export function AdminDashboardPage() {
  return (
    <main className="mx-auto grid min-h-dvh max-w-content place-content-center gap-3 px-6 text-center">
      <title>Admin dashboard | Client Portal</title>
      <h1 className="text-3xl font-semibold">Admin dashboard</h1>
      <p className="text-muted-foreground">Statistics, users, documents and site content will appear here.</p>
    </main>
  );
}
