import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { verifySession } from '@/api/verify-session';
import { buttonPrimary, buttonSecondary, card } from '@/components/ui/styles';
import { paths } from '@/config/paths';
import { useSignUpOffered } from '@/config/signup-mode';
import { logFailure, logInfo } from '@/lib/log';

const features = [
  {
    title: '100% Encrypted',
    text: 'Every password is encrypted in your browser before it is saved. The server only ever stores ciphertext it cannot read.',
  },
  {
    title: 'Fast & Reliable',
    text: 'A lean app and a lean server: your vault opens in a moment, on any device with a browser.',
  },
  {
    title: 'Zero Tracking',
    text: 'No analytics, no ads, no third-party scripts, and we never sell or share your data.',
  },
];

const steps = [
  { title: 'Create Account', text: 'Sign up with your email and choose a strong master password.' },
  {
    title: 'Save Passwords',
    text: 'Add the logins of your apps and websites; each one is encrypted before it leaves your device.',
  },
  { title: 'Access Anytime', text: 'Sign in from any device and unlock your vault with your master password.' },
];

/**
 * Sections below the first screen are laid out and painted only as they near the viewport
 * (`content-visibility: auto`), so the first paint does the hero's work, not the whole page's.
 * `contain-intrinsic-size: auto` keeps a size for them meanwhile and then their real one,
 * and they are drawn before they scroll into view, so nothing visible moves.
 */
const belowTheFold = '[content-visibility:auto] [contain-intrinsic-size:auto_320px]';

/**
 * The landing page. It runs the session check once on load; the answer is only logged. Its
 * calls to sign up are there only where anyone may (decision 0044); elsewhere the first one
 * leads to Sign In.
 */
export function HomePage() {
  const navigate = useNavigate();
  const signUpOffered = useSignUpOffered();
  useEffect(() => {
    verifySession().then(
      (state) => logInfo('Session check', state.signedIn ? 'signed in' : 'signed out'),
      (error: unknown) => logFailure('Session check', error),
    );
  }, []);

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-24 px-4 py-16">
      <section className="text-center">
        <h1 className="text-4xl font-extrabold text-white md:text-6xl">
          Your passwords,{' '}
          <span className="bg-gradient-to-r from-cyan-400 to-fuchsia-500 bg-clip-text text-transparent">locked and yours</span>
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-300">
          Lock it. Save it. Own it. Lockit keeps every login in one private vault, fully encrypted on your device, fast to reach,
          with no tracking and no data selling.
        </p>
        <div className="mt-10 flex flex-wrap justify-center gap-4">
          {signUpOffered ? (
            <button type="button" onClick={() => navigate(paths.signUp)} className={buttonPrimary}>
              Get Started
            </button>
          ) : (
            <button type="button" onClick={() => navigate(paths.signIn)} className={buttonPrimary}>
              Sign In
            </button>
          )}
          <button type="button" onClick={() => navigate(paths.vault)} className={buttonSecondary}>
            Go to Vault
          </button>
        </div>
      </section>

      <section aria-labelledby="features-title">
        <h2 id="features-title" className="sr-only">
          Features
        </h2>
        <ul className="grid gap-6 md:grid-cols-3">
          {features.map((feature) => (
            <li key={feature.title} className={card}>
              <h3 className="text-xl font-semibold text-white">{feature.title}</h3>
              <p className="mt-2 text-slate-400">{feature.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="what-title" className={`mx-auto max-w-3xl text-center ${belowTheFold}`}>
        <h2 id="what-title" className="text-3xl font-bold text-white">
          What is Lockit?
        </h2>
        <p className="mt-4 text-slate-300">
          Lockit is a personal password manager. You remember one master password; Lockit remembers the rest. Your vault is
          encrypted with a key only your master password can unlock, so nobody else, not even the server that stores it, can read
          what is inside.
        </p>
      </section>

      <section aria-labelledby="how-title" className={belowTheFold}>
        <h2 id="how-title" className="text-center text-3xl font-bold text-white">
          How It Works
        </h2>
        <ol className="mt-8 grid gap-6 md:grid-cols-3">
          {steps.map((step, index) => (
            <li key={step.title} className={card}>
              <span className="text-sm font-semibold text-cyan-300">Step {index + 1}</span>
              <h3 className="mt-1 text-xl font-semibold text-white">{step.title}</h3>
              <p className="mt-2 text-slate-400">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="testimonial-title" className={`mx-auto max-w-2xl ${belowTheFold}`}>
        <h2 id="testimonial-title" className="sr-only">
          What people say
        </h2>
        <figure className={`${card} text-center`}>
          <blockquote className="text-lg italic text-slate-200">
            “I finally stopped reusing passwords. Lockit is simple, quick, and I know my vault is encrypted before it ever leaves
            my laptop.”
          </blockquote>
          <figcaption className="mt-4 text-sm text-slate-400">— A Lockit user</figcaption>
        </figure>
      </section>

      {signUpOffered && (
        <section className={`text-center ${belowTheFold}`}>
          <button type="button" onClick={() => navigate(paths.signUp)} className={buttonPrimary}>
            Create Your Free Account
          </button>
        </section>
      )}
    </div>
  );
}
