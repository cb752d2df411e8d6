import { activityRouter } from "./activity/router.ts";
import { createCallerFactory, router } from "../trpc/init.ts";
import { accountRouter } from "./profile/router.ts";
import { accountExportTransfersRouter } from "./account-export/router.ts";
import { accountsRouter } from "./accounts/router.ts";
import { accountContactsRouter } from "./account-contacts/router.ts";
import { adminRouter } from "./admin/router.ts";
import { appointmentsRouter } from "./appointments/router.ts";
import { authRouter } from "./auth/router.ts";
import { consultationRouter } from "./consultation/router.ts";
import { documentsRouter } from "./documents/router.ts";
import { documentFirmTransfersRouter, documentTransfersRouter } from "./documents/transfers.ts";
import { firmDocumentsTransfersRouter } from "./firm-documents/router.ts";
import { firmRouter } from "./firm-setup/router.ts";
import { foldersRouter } from "./folders/router.ts";
import { messagesRouter } from "./messages/router.ts";
import { organizersRouter } from "./organizers/router.ts";
import { requestsRouter } from "./requests/router.ts";
import { signatureTransfersRouter, signaturesRouter } from "./signatures/router.ts";
import { siteRouter } from "./site/router.ts";
import { siteMediaRouter, siteMediaTransfersRouter } from "./site-media/router.ts";

export const appRouter = router({
  auth: authRouter,
  account: accountRouter,
  accounts: accountsRouter,
  accountContacts: accountContactsRouter,
  folders: foldersRouter,
  documents: documentsRouter,
  appointments: appointmentsRouter,
  consultation: consultationRouter,
  site: siteRouter,
  siteMedia: siteMediaRouter,
  admin: adminRouter,
  activity: activityRouter,
  requests: requestsRouter,
  organizers: organizersRouter,
  messages: messagesRouter,
  firm: firmRouter,
  signatures: signaturesRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);

/** Uploads and downloads: called by the REST layer only, never served at /trpc. */
const transferRouter = router({
  documents: documentTransfersRouter,
  // The firm's bytes, under the paths of the firm sub-routers they belong with (admin/router.ts).
  admin: router({ documents: documentFirmTransfersRouter, clients: firmDocumentsTransfersRouter }),
  siteMedia: siteMediaTransfersRouter,
  accountExport: accountExportTransfersRouter,
  signatures: signatureTransfersRouter,
});
export const createTransferCaller = createCallerFactory(transferRouter);
