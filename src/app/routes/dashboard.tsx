export function DashboardPage() {
  return (
    <main className="mx-auto grid min-h-dvh max-w-content place-content-center gap-3 px-6 text-center">
      <title>Dashboard | Client Portal</title>
      <h1 className="text-3xl font-semibold">Client dashboard</h1>
      <p className="text-muted-foreground">Your documents, folders and appointments will appear here.</p>
    </main>
  );
}
