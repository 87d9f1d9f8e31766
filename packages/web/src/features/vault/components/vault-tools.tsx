import { NavLink } from 'react-router';
import { paths } from '@/config/paths';

const TOOLS = [
  { label: 'Health', to: paths.health },
  { label: 'Generator', to: paths.generator },
  { label: 'Import', to: paths.import },
  { label: 'Export', to: paths.export },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg border px-3 py-1.5 text-sm font-medium transition hover:bg-slate-800 ${
    isActive ? 'border-cyan-400 text-cyan-200' : 'border-slate-700 text-slate-200'
  }`;

/** The vault's tools, under every vault page's heading: one row of links, wrapping on a phone. */
export function VaultTools() {
  return (
    <nav aria-label="Vault tools" className="mt-3 flex flex-wrap gap-2">
      <NavLink to={paths.vault} end className={linkClass}>
        Items
      </NavLink>
      {TOOLS.map((tool) => (
        <NavLink key={tool.to} to={tool.to} className={linkClass}>
          {tool.label}
        </NavLink>
      ))}
    </nav>
  );
}
