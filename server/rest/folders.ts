import { z } from "zod";
import { createFolderInput, folderOutput } from "../routers/folders/schemas.ts";
import { successOutput } from "../routers/shared-schemas.ts";
import type { RestRoute } from "./route.ts";

export const folderRoutes: RestRoute[] = [
  {
    method: "get",
    path: "/folders",
    summary: "The caller's folders",
    tag: "folders",
    access: "client",
    response: z.array(folderOutput),
    call: (c) => c.folders.list(),
  },
  {
    method: "post",
    path: "/folders",
    summary: "Create a folder",
    tag: "folders",
    access: "client",
    body: createFolderInput,
    response: folderOutput,
    status: 201,
    call: (c, r) => c.folders.create(r.body as never),
  },
  {
    method: "delete",
    path: "/folders/:id",
    summary: "Delete an empty folder",
    tag: "folders",
    access: "client",
    response: successOutput,
    call: (c, r) => c.folders.delete({ id: r.params.id! }),
  },
];
