/** The spec's local flag: once set, the welcome video does not open by itself again. */
const WELCOME_VIDEO_FLAG = "hasSeenWelcomeVideo";
export const WELCOME_VIDEO_DELAY_MS = 1500;

export function hasSeenWelcomeVideo(storage: Pick<Storage, "getItem">): boolean {
  try {
    return storage.getItem(WELCOME_VIDEO_FLAG) === "true";
  } catch {
    // Storage can be disabled (privacy settings); then the video must not nag on every visit.
    return true;
  }
}

export function markWelcomeVideoSeen(storage: Pick<Storage, "setItem">): void {
  try {
    storage.setItem(WELCOME_VIDEO_FLAG, "true");
  } catch {
    // Nothing to remember it in; the visitor simply sees it again next time.
  }
}

/** The admin's "Reset welcome video": the video opens again on the next visit. */
export function resetWelcomeVideo(storage: Pick<Storage, "removeItem">): void {
  try {
    storage.removeItem(WELCOME_VIDEO_FLAG);
  } catch {
    // Without storage the flag was never kept, so there is nothing to reset.
  }
}
