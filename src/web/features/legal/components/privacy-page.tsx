import { Link } from '@web/lib/link';
import { paths } from '@web/lib/paths';
import { LegalDocument, PRIVACY_EMAIL, type LegalSection } from './legal-document';

const SECTIONS: readonly LegalSection[] = [
  {
    id: 'what-we-store',
    title: 'What we store',
    body: (
      <ul>
        <li>
          <strong>Your account:</strong> your e-mail address and a securely hashed password (we never see or store the
          password itself).
        </li>
        <li>
          <strong>Your profile:</strong> your first and last name, your plan, and a profile image if you add one. Your
          browser shrinks the image before upload and we remove its hidden metadata (such as location).
        </li>
        <li>
          <strong>Your payments:</strong> when you pay for a plan, Stripe, our payment provider, takes your card
          details; we never see or store the card number. We keep the identifiers Stripe gives your customer record and
          subscription, the subscription’s status and its renewal or end date.
        </li>
        <li>
          <strong>Your practice:</strong> the messages you write, your current playlist and player settings, the
          subliminals you save (and their share links), music you upload, the answers you give when you set up your
          practice (your goals, in your own words if you wish), your progress in programs, your reminder, and your
          listening history (what you played, when and for how long). We use them only to run the portal for you: your
          recommendations are computed by our own servers from your goals, messages and history, and nothing of it goes
          to any other service. You can download all of it from your profile, and delete your history at any time.
        </li>
        <li>
          <strong>Your support requests:</strong> the subject and message you send with the support form, with your
          e-mail address and plan at that time. They are mailed to our support team, and to you if you ask for a copy;
          only the people who run Innerwave’s support read them.
        </li>
        <li>
          <strong>On your device only:</strong> your theme choice and your session tokens are kept in your browser’s
          local storage, with a copy of your playlist and player settings so the player opens at once. Spoken
          affirmations are synthesised, and audio exports rendered, in your browser: that audio never reaches our
          servers.
        </li>
        <li>
          <strong>Logs:</strong> when you use the service our servers record technical details such as your IP address,
          the page or call requested, the time and any error, to keep the service secure and working.
        </li>
      </ul>
    ),
  },
  {
    id: 'why',
    title: 'Why we store it',
    body: (
      <>
        <p>
          We use your data to run your account, show you your own content, send the e-mails you need (account
          activation, password resets and security notices), answer support requests, and protect the service against
          abuse. The legal basis is our contract with you and our legitimate interest in keeping Innerwave secure.
        </p>
        <p>
          We do not sell your data, we do not show ads, and we do not use third-party trackers or advertising cookies.
        </p>
      </>
    ),
  },
  {
    id: 'sharing',
    title: 'Who we share it with',
    body: (
      <p>
        Only with the service providers that host our servers, deliver our e-mail and take payments (Stripe, which
        receives your e-mail address to keep your customer record), under contracts that oblige them to protect it and
        use it only for us; and with authorities when the law requires it.
      </p>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep it',
    body: (
      <ul>
        <li>
          Account, profile and saved content: while your account exists. When you delete it, we erase them within 30
          days.
        </li>
        <li>Server logs: 30 days, unless we need them longer to investigate a security incident.</li>
        <li>
          Support requests sent with the form: while your account exists, erased with it. Support e-mails: up to 2 years
          after the conversation ends.
        </li>
      </ul>
    ),
  },
  {
    id: 'security',
    title: 'How we protect it',
    body: (
      <p>
        Connections are encrypted, passwords are hashed with a modern algorithm, signing out ends that session at once,
        and a password reset signs out every session. Only the people who run Innerwave can reach the servers.
      </p>
    ),
  },
  {
    id: 'rights',
    title: 'Your rights',
    body: (
      <>
        <p>
          You can see and correct your profile in the portal at any time. You can also ask us for a copy of your data,
          to correct or delete it, to restrict or object to how we use it, or to receive it in a portable format.
        </p>
        <p>
          We answer within 30 days. If you are not happy with our answer you may complain to your local data protection
          authority.
        </p>
      </>
    ),
  },
  {
    id: 'children',
    title: 'Children',
    body: (
      <p>
        Innerwave is for adults. People under 18 may use it only with a parent’s or guardian’s consent, as our{' '}
        <Link to={paths.terms}>terms</Link> say.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        For anything about your privacy, write to <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a>. When this
        policy changes in a way that matters, we tell you by e-mail or in the portal and update the date above.
      </p>
    ),
  },
];

export function PrivacyPage() {
  return (
    <LegalDocument
      title="Privacy policy"
      intro={<p>What Innerwave stores about you, why, for how long, and what you can ask us to do with it.</p>}
      sections={SECTIONS}
    />
  );
}
