import { Link } from 'react-router';
import { isExternalHref, type SiteLink } from '@/config/site-settings';

/**
 * A link from the site settings: an external profile opens in a new tab without handing it
 * this page (noopener, no referrer); a path of this app navigates inside it.
 */
export function ConfiguredLink({ link, className }: { link: SiteLink; className?: string }) {
  if (isExternalHref(link.href)) {
    return (
      <a href={link.href} target="_blank" rel="noopener noreferrer" className={className}>
        {link.label}
      </a>
    );
  }
  return (
    <Link to={link.href} className={className}>
      {link.label}
    </Link>
  );
}
