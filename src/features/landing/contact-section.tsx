import type { ReactNode } from "react";
import { Clock, Mail, MapPin, Phone } from "lucide-react";
import type { SiteContentReader } from "./use-site-content.ts";

type ContactSectionProps = { content: SiteContentReader; form: ReactNode };

export function ContactSection({ content, form }: ContactSectionProps) {
  const phone = content("contact", "phone");
  const email = content("contact", "email");
  const details = [
    { icon: Phone, label: "Phone", value: phone, href: phone ? `tel:${phone.replace(/[^\d+]/g, "")}` : undefined },
    { icon: Mail, label: "Email", value: email, href: email ? `mailto:${email}` : undefined },
    { icon: MapPin, label: "Address", value: content("contact", "address"), href: undefined },
    // The firm's weekly availability in words, or its own words (server/domains/site/hours.ts).
    { icon: Clock, label: "Hours", value: content("contact", "hours"), href: undefined },
  ];
  return (
    <section id="contact" aria-labelledby="contact-title" className="scroll-mt-28 border-t bg-card">
      <div className="mx-auto grid max-w-content gap-12 px-4 py-16 sm:px-6 md:grid-cols-[1fr_1.4fr] md:py-24">
        <div className="grid content-start gap-6">
          <p className="text-sm font-semibold text-accent">Contact</p>
          <h2 id="contact-title" className="text-3xl font-semibold sm:text-4xl">
            Schedule a consultation
          </h2>
          <p className="text-muted-foreground">Tell us a little about your business and when suits you. We reply within 24 hours.</p>
          <ul className="grid gap-4">
            {details.map((detail) => (
              <li key={detail.label} className="flex items-start gap-3">
                <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-accent-soft text-accent-soft-foreground">
                  <detail.icon className="size-5" />
                </span>
                <div className="min-w-0">
                  <span className="block text-sm text-muted-foreground">{detail.label}</span>
                  <span className="block font-medium break-words">
                    {detail.href ? (
                      <a href={detail.href} className="underline-offset-4 hover:underline">
                        {detail.value}
                      </a>
                    ) : (
                      detail.value
                    )}
                  </span>
                </div>
              </li>
            ))}
          </ul>
        </div>
        <div className="rounded-xl border bg-background p-5 sm:p-8">{form}</div>
      </div>
    </section>
  );
}
