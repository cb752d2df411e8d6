import type { Config } from "../../config.ts";
import { DEFAULT_PRIVACY_NOTICE, DEFAULT_TERMS } from "./legal-defaults.ts";
import type { SiteSection, Testimonial } from "./schemas.ts";

/** What the public carousel shows until an admin stores its own list: 12 entries. */
export const DEFAULT_TESTIMONIALS: Testimonial[] = [
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
];

export const DEFAULT_FIRM_NAME = "Harborline Accounting & Business Services";

/**
 * A value for every section and key of the spec's table. The images and the logo are files the
 * web client ships in public/; the contact email is the firm's configured address when there is one.
 */
export function defaultSiteContent(config: Pick<Config, "firmEmail">): Record<SiteSection, Record<string, string>> {
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
    legal: { privacy: DEFAULT_PRIVACY_NOTICE, terms: DEFAULT_TERMS },
  };
}
