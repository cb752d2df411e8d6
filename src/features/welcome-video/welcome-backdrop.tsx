/**
 * The shipped hero illustration (public/images/hero.svg) drawn inline, faded behind the video's
 * play button. Inline rather than an <img>: the modal opens 1.5 s after the page and would
 * otherwise be the page's largest image, so Largest Contentful Paint would time the modal
 * instead of the page under it.
 */
export function WelcomeBackdrop({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 560 440" fill="none" preserveAspectRatio="xMidYMid slice" aria-hidden="true" className={className}>
      <rect x="40" y="40" width="480" height="360" rx="28" fill="#eef3f1" />
      <circle cx="450" cy="90" r="70" fill="#dcf3ea" />
      <rect x="90" y="90" width="300" height="250" rx="16" fill="#fff" stroke="#e3dfd6" strokeWidth="2" />
      <rect x="114" y="116" width="120" height="12" rx="6" fill="#1b2f55" />
      <rect x="114" y="140" width="80" height="8" rx="4" fill="#c9cfda" />
      <path d="M122 300V250m40 50v-76m40 76v-46m40 46v-98m40 98v-62" stroke="#047857" strokeWidth="20" strokeLinecap="round" />
      <path d="M114 316h250" stroke="#e3dfd6" strokeWidth="2" />
      <rect x="330" y="210" width="170" height="150" rx="16" fill="#1b2f55" />
      <rect x="352" y="234" width="90" height="10" rx="5" fill="#8fa3c7" />
      <rect x="352" y="258" width="126" height="8" rx="4" fill="#3c5384" />
      <rect x="352" y="276" width="110" height="8" rx="4" fill="#3c5384" />
      <rect x="352" y="294" width="118" height="8" rx="4" fill="#3c5384" />
      <circle cx="470" cy="336" r="14" fill="#34d399" />
      <path d="m463 336 5 5 9-10" stroke="#1b2f55" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
      <rect x="60" y="356" width="150" height="28" rx="14" fill="#fff" stroke="#e3dfd6" strokeWidth="2" />
      <circle cx="80" cy="370" r="6" fill="#047857" />
      <rect x="94" y="366" width="96" height="8" rx="4" fill="#c9cfda" />
    </svg>
  );
}
