import { SITE_MARKUP_PARTS } from '@lockit/contract/site-settings';
import { card } from '@/components/ui/styles';
import { useInAppLinks } from '@/components/layout/use-in-app-links';
import { site } from '@/config/site';

export function AboutPage() {
  const inAppLinks = useInAppLinks();
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-16">
      <h1 className="text-4xl font-extrabold text-white">About Lockit</h1>

      <section aria-labelledby="about-what" className={card}>
        <h2 id="about-what" className="text-2xl font-bold text-white">
          What is Lockit?
        </h2>
        <p className="mt-3 text-slate-300">
          Lockit is a personal password manager: one private vault for the logins of your apps and websites, reachable from any
          device with a browser. You can run it yourself on your own server.
        </p>
      </section>

      <section aria-labelledby="about-protect" className={card}>
        <h2 id="about-protect" className="text-2xl font-bold text-white">
          How We Protect Your Data
        </h2>
        <ul className="mt-3 list-disc space-y-2 pl-5 text-slate-300">
          <li>
            Your passwords are encrypted end to end: they are locked in your browser with a key made from your master password,
            before anything is sent. The server stores only scrambled text it cannot read.
          </li>
          <li>
            Your master password never leaves your device. The server receives a separate proof derived from it, so even a
            break-in on the server does not reveal it.
          </li>
          <li>Because only you hold the key, nobody can recover a forgotten master password, not even us.</li>
          <li>No third-party sharing, no analytics, no ads, and no data selling.</li>
        </ul>
      </section>

      <section aria-labelledby="about-why" className={card}>
        <h2 id="about-why" className="text-2xl font-bold text-white">
          Why I Built It
        </h2>
        <p className="mt-3 text-slate-300">
          I wanted a password vault I could understand from end to end and own completely: small, open, fast, and built so that
          trusting the server is never required.
        </p>
      </section>

      <p className="text-center text-slate-400">
        Made by{' '}
        {/* A credit pointing at this page (the default) stays plain text: a link to itself leads
            nowhere. Set as HTML: the server writes the same string into the prerendered page. */}
        <span
          className="[&_a]:text-cyan-300 [&_a]:underline"
          dangerouslySetInnerHTML={{ __html: SITE_MARKUP_PARTS['about-credit'](site) }}
          data-site="about-credit"
          ref={inAppLinks}
        />
        .
      </p>
    </div>
  );
}
