import { z } from "zod";
import { createFolderInput, folderOutput, updateFolderBody } from "../domains/folders/schemas.ts";
import { successOutput } from "../domains/shared-schemas.ts";
import { folderArchiveRoute } from "./folder-archive.ts";
import { bodyOf, procedureRoute, type RestRoute } from "./route.ts";

const zipReply = { description: "A ZIP of the folder and all its subfolders, built while it is sent", contentType: "application/zip" };

export const folderRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/folders",
    summary: "The caller's folders",
    tag: "folders",
    access: "client",
    response: z.array(folderOutput),
    call: (c) => c.folders.list(),
  }),
  procedureRoute({
    method: "post",
    path: "/folders",
    summary: "Create a folder",
    tag: "folders",
    access: "client",
    body: createFolderInput,
    response: folderOutput,
    status: 201,
    call: (c, r) => c.folders.create(r.body),
  }),
  procedureRoute({
    method: "patch",
    path: "/folders/:id",
    summary: "Rename, recolour and/or move a folder (parent_folder_id null: the root); 409 for a sibling's name, 422 into itself",
    tag: "folders",
    access: "client",
    body: updateFolderBody,
    response: folderOutput,
    call: (c, r) => c.folders.update({ ...bodyOf(r), id: r.params.id }),
  }),
  // Before /folders/:id/download, which would take "root" for an id.
  {
    method: "get",
    path: "/folders/root/download",
    summary: "Download everything the caller has as one ZIP (Documents.zip)",
    tag: "folders",
    access: "client",
    response: zipReply,
    handler: folderArchiveRoute((transfers) => transfers.documents.zipPlan({ folder_id: null })),
  },
  {
    method: "get",
    path: "/folders/:id/download",
    summary: "Download a folder with all its subfolders as a ZIP",
    tag: "folders",
    access: "client",
    response: zipReply,
    handler: folderArchiveRoute((transfers, params) => transfers.documents.zipPlan({ folder_id: params.id! })),
  },
  procedureRoute({
    method: "delete",
    path: "/folders/:id",
    summary: "Delete an empty folder",
    tag: "folders",
    access: "client",
    response: successOutput,
    call: (c, r) => c.folders.delete({ id: r.params.id }),
  }),
];
