/** The red asterisk after a required field's label; hidden from screen readers, which hear "required" from the control. */
export function RequiredMark() {
  return (
    <span aria-hidden="true" className="ml-0.5 text-destructive">
      *
    </span>
  );
}
