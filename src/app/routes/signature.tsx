import { SigningFlow } from "@/features/signatures/signing-flow.tsx";
import { useOwnSignatureRequest } from "@/features/signatures/use-signatures.ts";
import { PortalItem, PortalItemPage } from "./portal-item-page.tsx";

/** /signatures/:id: one document the firm asks this person to sign (issue 35). */
export function SignaturePage() {
  return <PortalItemPage>{(id) => <SignatureRequest key={id} id={id} />}</PortalItemPage>;
}

function SignatureRequest({ id }: { id: string }) {
  const request = useOwnSignatureRequest(id);
  return (
    <PortalItem query={request} noun="signature request">
      {(data) => <SigningFlow request={data} />}
    </PortalItem>
  );
}
