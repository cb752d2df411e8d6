import type { Config } from "../../config.ts";
import { DEFAULT_FIRM_NAME } from "./public-data.ts";
import { DEFAULT_PRIVACY_NOTICE, DEFAULT_TERMS } from "./legal-defaults.ts";
import type { Service, SiteSection, Testimonial } from "./schemas.ts";

/**
 * What the public carousel shows until the firm has words of its own: 12 invented quotes, each
 * marked a sample (docs/site-content.md, Testimonials).
 */
export const DEFAULT_TESTIMONIALS: Testimonial[] = (
  [
    {
      text: "They untangled three years of bookkeeping in a month. For the first time I know where my business stands every week.",
      author: "Maria Gonzalez",
      business: "Restaurant owner",
    },
    {
      text: "Our tax return was ready early, explained line by line, and we paid less than we expected, all above board.",
      author: "James Whitfield",
      business: "Construction contractor",
    },
    {
      text: "Payroll used to eat my Fridays. Now it simply happens, on time, with every filing taken care of.",
      author: "Priya Raman",
      business: "Dental practice",
    },
    {
      text: "Uploading documents to the client portal is easy, and I never have to wonder whether an email attachment got lost.",
      author: "David Chen",
      business: "E-commerce retailer",
    },
    {
      text: "Clear advice when we incorporated. They walked us through every choice and its tax consequences.",
      author: "Alicia Brooks",
      business: "Marketing agency",
    },
    {
      text: "Responsive, precise and friendly. Questions get answered the same day, usually within the hour.",
      author: "Robert Kim",
      business: "Real estate investor",
    },
    {
      text: "They caught a payroll tax error from our previous provider and fixed it before it became a penalty.",
      author: "Sandra Patel",
      business: "Retail boutique",
    },
    {
      text: "Quarterly planning meetings changed how we budget. We finally set money aside for taxes with confidence.",
      author: "Thomas Reed",
      business: "Landscaping company",
    },
    {
      text: "The notary and administrative help saved me a dozen trips across town while closing on our new office.",
      author: "Elena Petrova",
      business: "Architecture studio",
    },
    {
      text: "Monthly reports that I actually understand, with a short note on what changed and why it matters.",
      author: "Marcus Johnson",
      business: "Fitness studio",
    },
    {
      text: "As a freelancer I dreaded estimated taxes. They set up a simple plan and I have not worried since.",
      author: "Hannah Lee",
      business: "Freelance designer",
    },
    {
      text: "Professional, discreet and thorough. I trust them with my family's finances and my company's books.",
      author: "Victor Alvarez",
      business: "Auto repair shop",
    },
  ] satisfies Testimonial[]
).map((testimonial) => ({ ...testimonial, sample: true }));

/** The notary card's link until the firm sets its own: NOTARY_URL's default (server/config.ts). */
const SHIPPED_NOTARY_URL = "https://www.nationalnotary.org/";

/**
 * The specification's six services (section 1), as the cards, the footer and the consultation form
 * show them until the firm edits the list. Each card's title is the page's, each `form_label` the
 * specification's option list's; payroll is a card but not one of the form's choices, as there.
 */
export const DEFAULT_SERVICES: Service[] = [
  {
    id: "bookkeeping",
    title: "Bookkeeping",
    description: "Monthly books, reconciliations and reports you can read, kept current all year.",
    icon: "calculator",
    link: "",
    link_text: "",
    form_label: "Bookkeeping Services",
  },
  {
    id: "tax-prep",
    title: "Tax Preparation & Planning",
    description: "Business and personal returns filed on time, with planning that lowers next year's bill.",
    icon: "file-text",
    link: "",
    link_text: "",
    form_label: "Tax Preparation & Planning",
  },
  {
    id: "notary",
    title: "Notary Services",
    description: "Documents notarized quickly through our partner notary service.",
    icon: "stamp",
    link: SHIPPED_NOTARY_URL,
    link_text: "Visit the notary site",
    form_label: "Notary Services",
  },
  {
    id: "admin",
    title: "Administrative Services",
    description: "Filings, correspondence and the paperwork that keeps your business in good standing.",
    icon: "clipboard-list",
    link: "",
    link_text: "",
    form_label: "Administrative Services",
  },
  {
    id: "payroll",
    title: "Payroll",
    description: "Pay runs, withholdings and payroll tax filings handled on schedule, every time.",
    icon: "wallet",
    link: "",
    link_text: "",
    form_label: "",
  },
  {
    id: "consulting",
    title: "Business Consulting",
    description: "Entity choice, budgets and cash-flow planning from people who know your numbers.",
    icon: "trending-up",
    link: "",
    link_text: "",
    form_label: "Business Consulting",
  },
];

/** The built-in services with the configured notary site (NOTARY_URL) on the notary card. */
export function defaultServices(notaryUrl: string = SHIPPED_NOTARY_URL): Service[] {
  return DEFAULT_SERVICES.map((service) => (service.id === "notary" ? { ...service, link: notaryUrl } : service));
}

export { DEFAULT_FIRM_NAME };

/**
 * A value for every section and key of the spec's table. The images and the logo are files the
 * web client ships in public/; the contact email is the firm's configured address when there is one,
 * the notary card's link the configured notary site.
 */
export function defaultSiteContent(
  config: Pick<Config, "firmEmail"> & Partial<Pick<Config, "notaryUrl">>,
): Record<SiteSection, Record<string, string>> {
  return {
    hero: {
      title: "Accounting that keeps your business moving",
      subtitle: "Bookkeeping, tax preparation, payroll and advice from people who know your numbers",
      description:
        "We take care of the books, the filings and the deadlines so you can run your business. Share documents securely through the client portal and get answers from a real accountant.",
      image: "/images/hero.svg",
    },
    about: {
      title: "A local firm that knows your name",
      description:
        "For small businesses and families in our city, we provide year-round bookkeeping, tax preparation and planning, payroll and administrative support. Every client works with the same accountant all year, and every document stays in our secure portal.",
      image: "/images/about.svg",
    },
    contact: {
      phone: "(555) 010-4200",
      email: config.firmEmail ?? "hello@example.com",
      address: "120 Main Street, Suite 300, Springfield, IL 62701",
      // Empty: the site says the firm's weekly availability in words (site/hours.ts).
      hours: "",
    },
    company: { name: DEFAULT_FIRM_NAME, logo: "/images/logo.svg" },
    welcome: { video: "/videos/welcome.mp4" },
    testimonials: { data: JSON.stringify(DEFAULT_TESTIMONIALS) },
    services: { list: JSON.stringify(defaultServices(config.notaryUrl)) },
    legal: { privacy: DEFAULT_PRIVACY_NOTICE, terms: DEFAULT_TERMS },
  };
}
