import { RotateCcw } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { resetWelcomeVideo } from "@/lib/welcome-video-flag.ts";

export function ResetWelcomeVideoButton() {
  function reset() {
    resetWelcomeVideo(window.localStorage);
    toast.success("Welcome video reset. It will show on your next visit to the home page.");
  }
  return (
    <Button variant="outline" onClick={reset}>
      <RotateCcw aria-hidden="true" />
      Reset welcome video
    </Button>
  );
}
