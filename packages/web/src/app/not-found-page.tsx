import { Link } from 'react-router';
import { buttonPrimary } from '@/components/ui/styles';
import { paths } from '@/config/paths';

export function NotFoundPage() {
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold text-white">Page not found</h1>
      <p className="mt-3 text-slate-400">There is nothing at this address.</p>
      <Link to={paths.home} className={`${buttonPrimary} mt-8`}>
        Back to Home
      </Link>
    </section>
  );
}
