import { RotateCcw } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";

/** The landing page's flag (spec section 4): without it the welcome video shows again. */
const WELCOME_VIDEO_FLAG = "hasSeenWelcomeVideo";

export function ResetWelcomeVideoButton() {
  function reset() {
    localStorage.removeItem(WELCOME_VIDEO_FLAG);
    toast.success("Welcome video reset. It will show on your next visit to the home page.");
  }
  return (
    <Button variant="outline" onClick={reset}>
      <RotateCcw aria-hidden="true" />
      Reset welcome video
    </Button>
  );
}
