import type { ReactNode } from "react";
import { CircleCheck } from "lucide-react";
import { SHIPPED_IMAGES, siteImageSrc } from "@/lib/site-image.ts";
import type { SiteContentReader } from "./use-site-content.ts";

const CHECKLIST = [
  "Year-round bookkeeping with clear monthly reports",
  "Tax preparation and planning for businesses and families",
  "Payroll and administrative support on schedule",
  "A secure client portal for every document",
  "A reply within 24 hours, from your own accountant",
];

type AboutSectionProps = { content: SiteContentReader; isPending: boolean; testimonials: ReactNode };

export function AboutSection({ content, isPending, testimonials }: AboutSectionProps) {
  return (
    <section id="about" aria-labelledby="about-title" className="scroll-mt-28">
      <div className="mx-auto grid max-w-content gap-16 px-4 py-16 sm:px-6 md:py-24">
        <div className="grid items-center gap-10 md:grid-cols-2">
          <div className="grid gap-5">
            <p className="text-sm font-semibold text-accent">About</p>
            <h2 id="about-title" className="text-3xl font-semibold sm:text-4xl">
              {isPending ? <span className="block h-20 animate-pulse rounded-lg bg-muted" /> : content("about", "title")}
            </h2>
            <p className="text-muted-foreground">
              {isPending ? <span className="block h-20 animate-pulse rounded-lg bg-muted" /> : content("about", "description")}
            </p>
            <ul className="grid gap-3">
              {CHECKLIST.map((item) => (
                <li key={item} className="flex items-start gap-3">
                  <CircleCheck className="mt-0.5 size-5 shrink-0 text-accent" />
                  <span>{item}</span>
                </li>
              ))}
            </ul>
          </div>
          <div className="aspect-[4/3] w-full">
            {!isPending && (
              <img
                src={siteImageSrc(content("about", "image"), SHIPPED_IMAGES.about)}
                alt=""
                width={480}
                height={360}
                loading="lazy"
                className="size-full object-cover"
              />
            )}
          </div>
        </div>
        {testimonials}
      </div>
    </section>
  );
}
