// The built-in texts of the public legal pages (/privacy and /terms), kept as site content
// (legal.privacy, legal.terms) the firm edits in the Site tab. The format is the small subset the
// pages render (src/features/landing/legal-text.tsx): blank lines between blocks, "## " starts a
// heading, "- " starts a list item; anything else is plain text, never HTML.

export const DEFAULT_PRIVACY_NOTICE = `This notice explains what nonpublic personal information we collect about you, how we use and protect it, and the choices you have. As a tax and accounting practice, we follow the privacy rules of the Gramm-Leach-Bliley Act (GLBA) and the IRS rules on the use and disclosure of tax return information.

## What we collect
- Information you give us on organizers, forms and in meetings: your name, address, email, phone number, Social Security or taxpayer identification numbers, dates of birth, and those of your family members.
- Financial information: income, wages, bank and investment accounts, business records, prior tax returns and the documents you upload to the client portal.
- Information about your use of the client portal: sign-ins, the device and network address used, and which documents were uploaded, viewed or downloaded.

## How we use it
We use your information only to provide the services you ask of us: preparing and filing returns, bookkeeping, payroll, planning and advice, and to answer your questions. We do not use your tax return information for any other purpose without your written consent.

## Who we share it with
We do not sell your information, and we do not share it with anyone for their own marketing. We disclose it only:
- to tax authorities such as the IRS and state agencies, when filing on your behalf;
- to service providers who help us run the practice (for example secure storage and email delivery), under contracts that require them to keep it confidential and use it only for us;
- when the law requires it, such as a subpoena or a court order;
- to anyone else only with your written consent.

## How we protect it
We keep physical, electronic and procedural safeguards under a written information security plan. Documents in the client portal are sent over encrypted connections and stored with access limited to you and the staff who work on your account; every access is recorded. Our staff are trained in confidentiality and bound by professional rules.

## Your choices
Because we do not share your information except as described above, there is nothing you need to opt out of. You may ask us to correct your information, to send you a copy of what you uploaded, or to delete documents we are not required to keep. We keep records for the periods that tax and professional rules require.

## Former clients
If you stop being our client, we continue to treat your information as described in this notice.

## Contact us
Questions about this notice or your information: call, email or write to us using the contact details on our website. We will tell you before we change this notice in a way that affects how your information is shared.`;

export const DEFAULT_TERMS = `These terms apply to our website and to the client portal. By using them you agree to these terms.

## Our services
The website describes our services in general terms; it is not tax, legal or accounting advice. Advice and engagements are governed by the engagement letter we sign with you, which prevails over these terms.

## Your portal account
- Keep your password and second factor to yourself; you are responsible for what is done with your account. Tell us at once if you think someone else has used it.
- Upload only documents that are yours to share, or that you are authorized to share, and that are needed for the work we do for you.
- Do not try to reach other clients' information, test the portal's security, or interfere with its operation.

## Documents and messages
Documents you upload stay yours. We use them to serve you and keep them as long as professional and tax rules require. Messages in the portal are not monitored around the clock: for anything urgent, call us.

## Availability
We work to keep the portal available and secure, but it may be unavailable for maintenance or for reasons outside our control. Keep your own copies of important documents.

## Limitation of liability
To the extent the law allows, we are not liable for indirect or consequential losses arising from the use of the website or the portal. Nothing in these terms limits our professional responsibilities under your engagement letter.

## Changes
We may update these terms; the version on this page is the one that applies. Questions: contact us using the details on our website.`;
