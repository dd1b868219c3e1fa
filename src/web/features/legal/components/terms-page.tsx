import { Link } from '@web/lib/link';
import { CONTACT } from '@web/lib/constants';
import { paths } from '@web/lib/paths';
import { LegalDocument, SUPPORT_EMAIL, type LegalSection } from './legal-document';

const SECTIONS: readonly LegalSection[] = [
  {
    id: 'agreement',
    title: 'Agreement',
    body: (
      <>
        <p>
          These terms are an agreement between you and Innerwave (“we”, “us”) about your use of the Innerwave website,
          web portal and desktop applications (together, “the service”). By creating an account or using the service you
          accept them. If you do not agree, please do not use the service.
        </p>
        <p>
          Innerwave is in beta. Features may change, appear or be removed while we build the product, and we will say so
          on the site when something important changes.
        </p>
      </>
    ),
  },
  {
    id: 'eligibility',
    title: 'Who may use Innerwave',
    body: (
      <p>
        You must be at least 18 years old to create an account, or have the consent of a parent or legal guardian who
        accepts these terms on your behalf. You must give a real e-mail address that you control, and you are
        responsible for keeping your password private and for what happens under your account.
      </p>
    ),
  },
  {
    id: 'not-medical-advice',
    title: 'Not medical advice',
    body: (
      <>
        <p>
          Innerwave offers affirmations, tones, sounds and binaural beats for relaxation, focus and personal reflection.
          Nothing in the service, on this site or in our messages is medical, psychological or therapeutic advice, and
          nothing here diagnoses, treats, cures or prevents any condition.
        </p>
        <p>
          If you have a health concern, talk to a qualified professional. Do not listen to audio while driving or
          operating machinery. If you are sensitive to flashing images, read the photosensitivity notice before you
          start the subliminals player, and keep the volume low and comfortable.
        </p>
      </>
    ),
  },
  {
    id: 'plans',
    title: 'Plans, payment and price changes',
    body: (
      <>
        <p>
          Innerwave has a free Basic plan and paid Intermediate and Pro plans, billed monthly. The current prices and
          what each plan includes are shown on our <Link to={paths.home}>home page</Link>.
        </p>
        <p>
          Payments are handled by Stripe, our payment provider; we never see or store your full card number. A paid plan
          renews automatically every month, and is charged to your card at each renewal, until you cancel it. You can
          change your plan, update your card, see your invoices or cancel at any time under Plan &amp; billing in your
          profile.
        </p>
        <p>
          Prices may change. We will tell you by e-mail at least 30 days before a new price applies to you, and the new
          price starts with your next billing period after those 30 days. You can cancel before then. A cancelled plan
          stays active until the end of the period you have paid for, and then your account moves to the free Basic
          plan; we do not refund partial months unless the law requires it.
        </p>
        <p>
          If a payment fails, Stripe tries again over the following days and you keep your plan meanwhile; if it still
          cannot be paid, your account moves to Basic. Moving to a lower plan deletes nothing: what that plan does not
          include stays readable, and you can delete it.
        </p>
      </>
    ),
  },
  {
    id: 'your-content',
    title: 'Your content',
    body: (
      <p>
        The messages, playlists and images you add stay yours. You give us the limited permission we need to store them
        and show them back to you. Do not upload anything you do not have the right to use, or anything unlawful,
        hateful or harmful. We may remove such content and suspend accounts that break these terms.
      </p>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    body: (
      <ul>
        <li>Do not try to break, overload or get around the security of the service.</li>
        <li>Do not access other people’s accounts or data.</li>
        <li>Do not copy, resell or redistribute our audio, art or affirmations outside the service.</li>
        <li>Do not use automated tools to scrape the service.</li>
      </ul>
    ),
  },
  {
    id: 'our-content',
    title: 'Our content',
    body: (
      <p>
        The Innerwave name, logo, art, audio, affirmations and software belong to us. While your account is in good
        standing you may use them for your own personal, non-commercial practice.
      </p>
    ),
  },
  {
    id: 'support',
    title: 'Support',
    body: (
      <p>
        Signed in, use the <Link to={paths.support}>support form</Link> in the portal, open at any hour; or write to us
        at <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. Our support team answers within{' '}
        {CONTACT.supportResponseBusinessHours} business hours (Monday to Friday, excluding public holidays). Requests
        from the Intermediate and Pro plans are answered first.
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Warranty and liability',
    body: (
      <>
        <p>
          We work hard to keep Innerwave available and correct, but the service is provided “as is”, without any
          warranty that it will always be available, error-free or suited to a particular purpose.
        </p>
        <p>
          To the extent the law allows, our total liability to you for any claim about the service is limited to the
          fees you paid us in the 12 months before the claim arose. We are not liable for indirect or consequential
          losses. Nothing in these terms limits liability that cannot be limited by law.
        </p>
      </>
    ),
  },
  {
    id: 'ending',
    title: 'Ending your account',
    body: (
      <p>
        You can stop using Innerwave at any time and delete your account yourself, from your profile: what you made and
        kept here is deleted with it, and a paid subscription is cancelled at once, with nothing more charged. We may
        suspend or close an account that breaks these terms, after telling you why where we reasonably can.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        We may update these terms as the product grows. When a change is significant we will tell you by e-mail or in
        the portal before it takes effect, and the date at the top of this page will change. Continuing to use the
        service after that means you accept the updated terms. See also our{' '}
        <Link to={paths.privacy}>privacy policy</Link>.
      </p>
    ),
  },
];

export function TermsPage() {
  return (
    <LegalDocument
      title="Terms and conditions"
      intro={<p>Plain-language terms for using Innerwave. Please read them once; they are short on purpose.</p>}
      sections={SECTIONS}
    />
  );
}
