// Every JSON answer the HTTP tests receive from /api is checked against what /api/openapi.json
// documents for its route and status (ApiClient calls checkApiResponse). So the documented output
// schemas are tested by the whole API suite, not by a list kept beside it: a field the schema
// lacks (output objects are closed), a wrong type or a missing field fails the test that saw it.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { buildOpenApiDocument } from "../../server/rest/openapi.ts";
import { REST_ROUTES } from "../../server/rest/routes.ts";

type Operation = { responses: Record<string, { content?: Record<string, { schema?: object }> }> };

const document = buildOpenApiDocument(REST_ROUTES, "http://localhost");
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const errorSchema = document.components.schemas.Error;

const operations = Object.entries(document.paths as Record<string, Record<string, Operation>>).map(([path, methods]) => ({
  path,
  pattern: new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}$`),
  methods,
}));
const validators = new Map<string, ValidateFunction>();

function validatorFor(schema: object, key: string): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ ...schema, components: document.components });
    validators.set(key, validate);
  }
  return validate;
}

/** The schema documented for this answer, if the route is ours and the status documented. */
function documentedSchema(method: string, apiPath: string, status: number): { schema: object; key: string } | null {
  const route = operations.find((o) => o.pattern.test(apiPath));
  const response = route?.methods[method.toLowerCase()]?.responses[String(status)];
  if (!response) return null;
  const schema = response.content?.["application/json"]?.schema;
  if (!schema) return null;
  const ref = (schema as { $ref?: string }).$ref;
  return { schema: ref === "#/components/schemas/Error" ? errorSchema : schema, key: `${method} ${route!.path} ${status}` };
}

/**
 * Throws when a JSON answer of /api does not match its documented schema. Answers the document
 * does not describe for that status (an unexpected 500, a 429) are left to the test's own checks.
 */
export function checkApiResponse(method: string, url: URL, status: number, body: unknown): void {
  if (!url.pathname.startsWith("/api/")) return;
  const apiPath = url.pathname.slice("/api".length);
  const documented = documentedSchema(method, apiPath, status);
  if (!documented) return;
  const validate = validatorFor(documented.schema, documented.key);
  if (!validate(body)) {
    const problems = ajv.errorsText(validate.errors, { separator: "; " });
    throw new Error(
      `${method} ${url.pathname} answered ${status} with a body that does not match /api/openapi.json: ${problems}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}
