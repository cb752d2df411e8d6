import { type CSSProperties, useEffect, useRef, useState } from "react";
import { clsx } from "clsx";
import { ChevronLeft, ChevronRight, Pause, Play, Quote } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { useMediaQuery } from "@/lib/use-media-query.ts";
import type { Testimonial } from "@server/domains/site/schemas.ts";
import {
  AUTOPLAY_INTERVAL_MS,
  isStatic,
  nextIndex,
  previousIndex,
  SLIDE_TRANSITION_MS,
  SMALL_SCREEN_VISIBLE_COUNT,
  SWIPE_THRESHOLD_PX,
  THREE_VISIBLE_MEDIA_QUERY,
  trackSlots,
  VISIBLE_COUNT,
  wrapIndex,
} from "./carousel.ts";

function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

const slideTransition: CSSProperties = { transitionDuration: `${SLIDE_TRANSITION_MS}ms` };

/**
 * Three testimonials at full strength from the md breakpoint (one on smaller screens, where
 * three would not be readable), the rest dimmed; previous/next wrap, one dot per item, autoplay
 * every 4 s unless the visitor prefers reduced motion or pauses it.
 */
/** `held`: a dialog is open over the page; autoplay waits until it closes (nobody sees the slides move behind it). */
export function TestimonialCarousel({ testimonials, held = false }: { testimonials: Testimonial[]; held?: boolean }) {
  return isStatic(testimonials.length) ? <TestimonialRow testimonials={testimonials} /> : <Carousel testimonials={testimonials} held={held} />;
}

/** Samples are said to be samples, above the carousel and on each quote: never passed off as clients' words. */
function Heading({ samples }: { samples: boolean }) {
  return (
    <div className="grid gap-2">
      <p className="text-sm font-semibold text-accent">Testimonials</p>
      <h3 id="testimonials-title" className="text-2xl font-semibold sm:text-3xl">
        What our clients say
      </h3>
      {samples && <p className="text-sm text-muted-foreground">Sample testimonials: invented to show the layout, not our clients&apos; words.</p>}
    </div>
  );
}

function TestimonialCard({ testimonial }: { testimonial: Testimonial }) {
  return (
    <figure className="flex h-full flex-col gap-4 rounded-xl border bg-card p-6">
      <Quote className="size-6 text-accent" />
      <blockquote className="grow text-pretty">{testimonial.text}</blockquote>
      <figcaption>
        <span className="block font-semibold">{testimonial.author}</span>
        <span className="text-sm text-muted-foreground">{testimonial.business}</span>
        {testimonial.sample && <span className="ml-2 rounded border px-1.5 text-xs font-medium text-muted-foreground">Sample</span>}
      </figcaption>
    </figure>
  );
}

/** Three or fewer: nothing to page through, so all of them side by side, without controls or autoplay. */
function TestimonialRow({ testimonials }: { testimonials: Testimonial[] }) {
  return (
    <section aria-labelledby="testimonials-title" className="grid gap-8">
      <Heading samples={testimonials.some((t) => t.sample)} />
      <ul data-testid="testimonial-row" className="grid gap-4 md:grid-cols-3">
        {testimonials.map((testimonial, index) => (
          <li key={`${index}-${testimonial.author}`}>
            <TestimonialCard testimonial={testimonial} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Carousel({ testimonials, held }: { testimonials: Testimonial[]; held: boolean }) {
  const count = testimonials.length;
  const swipeStart = useRef<{ x: number; y: number } | null>(null);
  const [active, setActive] = useState(0);
  const [playing, setPlaying] = useState(() => !prefersReducedMotion());
  const current = wrapIndex(active, count);
  const visible = useMediaQuery(THREE_VISIBLE_MEDIA_QUERY) ? VISIBLE_COUNT : SMALL_SCREEN_VISIBLE_COUNT;

  // Restarts with every change of slide, so a click on previous, next or a dot gets a full 4 s. Held
  // behind a dialog: slides changing there caught the accept page's axe check mid-fade (issue 48).
  useEffect(() => {
    if (!playing || held || count < 2) return;
    const timer = window.setTimeout(() => setActive(nextIndex(current, count)), AUTOPLAY_INTERVAL_MS);
    return () => window.clearTimeout(timer);
  }, [playing, held, count, current]);

  return (
    <section aria-roledescription="carousel" aria-labelledby="testimonials-title" className="grid gap-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <Heading samples={testimonials.some((t) => t.sample)} />
        <div className="flex gap-2">
          <Button variant="outline" size="icon" onClick={() => setActive(previousIndex(current, count))} aria-label="Previous testimonial">
            <ChevronLeft />
          </Button>
          <Button
            variant="outline"
            size="icon"
            onClick={() => setPlaying((value) => !value)}
            aria-label={playing ? "Pause autoplay" : "Resume autoplay"}
          >
            {playing ? <Pause /> : <Play />}
          </Button>
          <Button variant="outline" size="icon" onClick={() => setActive(nextIndex(current, count))} aria-label="Next testimonial">
            <ChevronRight />
          </Button>
        </div>
      </div>

      {/* A horizontal swipe on a touch screen moves by one; a mostly vertical one scrolls the page. */}
      <div
        className="touch-pan-y overflow-hidden"
        onPointerDown={(event) => {
          if (event.pointerType === "touch") swipeStart.current = { x: event.clientX, y: event.clientY };
        }}
        onPointerUp={(event) => {
          const start = swipeStart.current;
          swipeStart.current = null;
          if (!start) return;
          const dx = event.clientX - start.x;
          if (Math.abs(dx) < SWIPE_THRESHOLD_PX || Math.abs(dx) < Math.abs(event.clientY - start.y)) return;
          setActive(dx < 0 ? nextIndex(current, count) : previousIndex(current, count));
        }}
        onPointerCancel={() => {
          swipeStart.current = null;
        }}
      >
        <ul
          aria-live={playing ? "off" : "polite"}
          data-active={current}
          style={{ "--active": current, ...slideTransition } as CSSProperties}
          className="flex translate-x-[calc(var(--active)*-88%)] transition-transform ease-out md:translate-x-[calc(var(--active)*-100%/3.2)]"
        >
          {trackSlots(current, count, visible).map((slot) => {
            const testimonial = testimonials[slot.item];
            if (!testimonial) return null;
            return (
              <li
                key={slot.position}
                // Dimmed slots are a glimpse of what comes next, not content: inert hides them from
                // assistive tech and from the contrast rules that apply to readable text.
                aria-hidden={slot.isClone || !slot.isVisible || undefined}
                inert={!slot.isVisible}
                data-visible={slot.isVisible}
                style={slideTransition}
                className={clsx("w-[88%] shrink-0 pr-4 transition-opacity md:w-[calc(100%/3.2)]", !slot.isVisible && "opacity-35")}
              >
                <TestimonialCard testimonial={testimonial} />
              </li>
            );
          })}
        </ul>
      </div>

      <div className="flex flex-wrap justify-center gap-0.5">
        {testimonials.map((testimonial, index) => (
          <button
            key={`${index}-${testimonial.author}`}
            type="button"
            onClick={() => setActive(index)}
            aria-label={`Show testimonial ${index + 1} of ${count}`}
            aria-current={index === current || undefined}
            className="group inline-flex size-6 cursor-pointer items-center justify-center rounded-full"
          >
            <span className={clsx("size-2.5 rounded-full transition-colors", index === current ? "bg-accent" : "bg-input/50 group-hover:bg-input")} />
          </button>
        ))}
      </div>
    </section>
  );
}
