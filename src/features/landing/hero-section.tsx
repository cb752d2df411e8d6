import { ArrowRight, ShieldCheck } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { SHIPPED_IMAGES, siteImageSrc } from "@/lib/site-image.ts";
import type { SiteContentReader } from "./use-site-content.ts";

type HeroSectionProps = { content: SiteContentReader; isPending: boolean; onAccessPortal: () => void };

export function HeroSection({ content, isPending, onAccessPortal }: HeroSectionProps) {
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden">
      <div className="mx-auto grid max-w-content items-center gap-12 px-4 pt-12 pb-16 sm:px-6 md:grid-cols-[1.1fr_1fr] md:pt-20 md:pb-24">
        <div className="grid gap-6">
          <p className="inline-flex w-fit items-center gap-2 rounded-full border bg-card px-3 py-1 text-xs font-medium text-accent-soft-foreground">
            <ShieldCheck className="size-3.5" />
            {isPending ? <span className="h-3 w-40 animate-pulse rounded bg-muted" /> : content("hero", "subtitle")}
          </p>
          <h1 id="hero-title" className="text-4xl font-semibold sm:text-5xl lg:text-display">
            {isPending ? <span className="block h-24 animate-pulse rounded-lg bg-muted" /> : content("hero", "title")}
          </h1>
          <p className="max-w-prose text-lg text-muted-foreground">
            {isPending ? <span className="block h-14 animate-pulse rounded-lg bg-muted" /> : content("hero", "description")}
          </p>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button size="lg" variant="accent" onClick={onAccessPortal}>
              Access Client Portal
              <ArrowRight />
            </Button>
            <Button size="lg" variant="outline" asChild>
              <a href="#contact">Schedule Consultation</a>
            </Button>
          </div>
        </div>
        <div className="aspect-[14/11] w-full">
          {!isPending && (
            <img
              src={siteImageSrc(content("hero", "image"), SHIPPED_IMAGES.hero)}
              alt=""
              width={560}
              height={440}
              className="size-full object-cover"
              fetchPriority="high"
            />
          )}
        </div>
      </div>
    </section>
  );
}
