import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Footer } from './footer';
import { Header } from './header';

/** Header and footer around every route; lazily loaded pages show a quiet spinner meanwhile. */
export function MainLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <Header />
      <main className="flex-1 pt-16">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}

function PageSpinner() {
  return (
    <div className="flex justify-center py-24">
      <div
        role="progressbar"
        aria-label="Loading page"
        className="h-8 w-8 animate-spin rounded-full border-4 border-slate-700 border-t-cyan-400"
      />
    </div>
  );
}
