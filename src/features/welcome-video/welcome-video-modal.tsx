import { useEffect, useState } from "react";
import { Play } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog.tsx";
import { Progress } from "@/components/ui/progress.tsx";
import { markWelcomeVideoSeen } from "@/lib/welcome-video-flag.ts";
import { WelcomeBackdrop } from "./welcome-backdrop.tsx";

/**
 * The simulated playback's length, shown while the firm has uploaded no video of its own
 * (docs/site-content.md, "Logo, pictures and the welcome video").
 */
const PLAYBACK_MS = 6000;
const TICK_MS = 100;

/** The firm's uploaded video (server/domains/site-media), with its WebVTT captions when it has them. */
type WelcomeVideoFile = { src: string; type: string; captions: string | null };
type WelcomeVideoModalProps = { open: boolean; onOpenChange: (open: boolean) => void; firmName: string; video: WelcomeVideoFile | null };

export function WelcomeVideoModal({ open, onOpenChange, firmName, video }: WelcomeVideoModalProps) {
  const [elapsed, setElapsed] = useState<number | null>(null);
  const [ended, setEnded] = useState(false);
  const simulated = video === null;
  const playing = simulated && elapsed !== null && elapsed < PLAYBACK_MS;
  const finished = simulated ? elapsed !== null && elapsed >= PLAYBACK_MS : ended;

  useEffect(() => {
    if (!playing) return;
    const timer = window.setInterval(() => setElapsed((ms) => Math.min(PLAYBACK_MS, (ms ?? 0) + TICK_MS)), TICK_MS);
    return () => window.clearInterval(timer);
  }, [playing]);

  function play() {
    markWelcomeVideoSeen(window.localStorage);
    setElapsed(0);
  }

  function close() {
    // However it is dismissed (Skip, Escape, the close button), it should not come back on every visit.
    markWelcomeVideoSeen(window.localStorage);
    onOpenChange(false);
  }

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Welcome to {firmName}</DialogTitle>
          <DialogDescription>A two-minute introduction to our services and your secure client portal.</DialogDescription>
        </DialogHeader>
        <div className="relative grid aspect-video place-items-center overflow-hidden rounded-lg bg-primary text-primary-foreground">
          <WelcomeBackdrop className="absolute inset-0 size-full opacity-25" />
          {elapsed === null ? (
            <Button variant="accent" size="lg" onClick={play} className="relative">
              <Play />
              Play video
            </Button>
          ) : simulated ? (
            <p className="relative text-lg font-semibold" role="status">
              {finished ? "Thanks for watching!" : "Playing welcome video..."}
            </p>
          ) : (
            // Played by the visitor's click on Play, so the browser lets it start with its sound.
            <video className="relative size-full bg-black" controls autoPlay playsInline preload="metadata" onEnded={() => setEnded(true)}>
              <source src={video.src} type={video.type} />
              {video.captions && <track kind="captions" src={video.captions} srcLang="en" label="English" default />}
            </video>
          )}
          {simulated && elapsed !== null && (
            <Progress
              value={(elapsed / PLAYBACK_MS) * 100}
              aria-label="Video progress"
              className="absolute inset-x-4 bottom-4 w-auto bg-primary-foreground/25"
            />
          )}
        </div>
        <DialogFooter>
          <Button variant={finished ? "accent" : "outline"} onClick={close}>
            {finished ? "Continue to site" : "Skip"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
