/*
 * Organizers (issue 36): the firm's templates (one schema, conditions, groups, a ready template to
 * copy), sending to one account or many, the client's partial saves (racing each other), the rules
 * (hidden questions keep no answers, required only when visible, 422 naming what is missing),
 * submit and take back, last year's answers, sensitive answers sealed and masked, file answers
 * through the ordinary upload (within the quota), the firm's reviewed marks, reopen, PDF (read
 * back with pdfjs) and CSV. Real server, real Postgres, real SMTP.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createStaffMember, createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

/** Monday March 1, 2027, 9:00 in Chicago. */
const NOW = new Date("2027-03-01T15:00:00Z");
const FIRM_EMAIL = "office@harborline.test";
const SEALING_KEY = randomBytes(32).toString("base64");

let smtp: TestSmtpServer;
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, FIRM_EMAIL, TOTP_ENCRYPTION_KEY: SEALING_KEY } });
  server.clock.set(NOW);
  admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});
beforeEach(() => {
  server.clock.set(NOW);
});

async function client(name = "Rowan Ellis"): Promise<{ user: UserFixture; api: ApiClient }> {
  const user = await createUser(server.db, { name });
  await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", user.id).execute();
  return { user, api: await loginClient(server.url, user) };
}

/** A small template exercising every rule: a condition, a required question shown by it, a group, a file and a sensitive answer. */
const TEMPLATE = {
  sections: [
    {
      title: "Life",
      questions: [
        { id: "moved", type: "yes_no", label: "Did you move?", required: true },
        { id: "new_address", type: "long_text", label: "New address", required: true, visible_if: { question: "moved", equals: true } },
        { id: "kids", type: "multi_choice", label: "Which apply?", options: ["Dependents", "Daycare"] },
        { id: "daycare_cost", type: "money", label: "Daycare paid", required: true, visible_if: { question: "kids", includes: "Daycare" } },
      ],
    },
    {
      title: "Income",
      questions: [
        {
          id: "w2_jobs",
          type: "group",
          label: "One per employer",
          required: true,
          questions: [
            { id: "employer", type: "text", label: "Employer", required: true },
            { id: "wages", type: "money", label: "Wages" },
            { id: "left", type: "yes_no", label: "Left the job?" },
            { id: "left_on", type: "date", label: "Last day", required: true, visible_if: { question: "left", equals: true } },
          ],
        },
        { id: "w2_files", type: "file", label: "W-2 forms", required: true },
        { id: "notes", type: "text", label: "Notes" },
        { id: "refund", type: "choice", label: "Refund", options: ["Deposit", "Check"] },
        { id: "account_number", type: "text", label: "Account number", sensitive: true, visible_if: { question: "refund", equals: "Deposit" } },
      ],
    },
  ],
};

async function template(name = "Season 2026", body: unknown = TEMPLATE): Promise<string> {
  const res = await admin.post("/api/admin/organizer-templates", { name, template: body });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function send(accountId: string, templateId: string, title = "2026 organizer", extra: Record<string, unknown> = {}): Promise<string> {
  const res = await admin.post("/api/admin/organizers", { account_id: accountId, template_id: templateId, title, due_date: "2027-04-01", ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

function upload(api: ApiClient, fields: Record<string, string>, bytes = 64, name = "w2.txt") {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("file", new Blob([randomBytes(bytes / 2).toString("hex")], { type: "text/plain" }), name);
  return api.request("POST", "/api/documents/upload", { body: form });
}

type Answer = { question_id: string; value: unknown; masked: string | null; from_last_year: boolean; reviewed: boolean; version: number };
const answerOf = (body: { answers: Answer[] }, id: string) => body.answers.find((a) => a.question_id === id);

describe("templates", () => {
  it("validates a template with one schema: conditions on earlier questions, matching options, unique ids", async () => {
    const bad = async (questions: unknown[], message: RegExp) => {
      const res = await admin.post("/api/admin/organizer-templates", { name: "Bad", template: { sections: [{ title: "S", questions }] } });
      expect(res.status, res.text).toBe(422);
      expect(res.body.detail).toMatch(message);
    };
    await bad(
      [
        { id: "a", type: "text", label: "A", visible_if: { question: "b", equals: "x" } },
        { id: "b", type: "text", label: "B" },
      ],
      /not a question asked before/,
    );
    await bad(
      [
        { id: "a", type: "text", label: "A" },
        { id: "a", type: "text", label: "Again" },
      ],
      /used twice/,
    );
    await bad(
      [
        { id: "a", type: "choice", label: "A", options: ["x"] },
        { id: "b", type: "text", label: "B", visible_if: { question: "a", equals: "y" } },
      ],
      /not an option/,
    );
    await bad(
      [
        { id: "a", type: "yes_no", label: "A" },
        { id: "b", type: "text", label: "B", visible_if: { question: "a", includes: "y" } },
      ],
      /includes needs a multi_choice/,
    );
    await bad([{ id: "a", type: "wat", label: "A" }], /type must be one of/);
    await bad([{ id: "g", type: "group", label: "G", questions: [{ id: "f", type: "file", label: "F" }] }], /group's question type/);
    await bad(
      [{ id: "g", type: "group", label: "G", questions: [{ id: "n", type: "text", label: "N", sensitive: true }] }],
      /Mark the group sensitive/,
    );
  });

  it("ships a ready Individual tax organizer the firm copies, edits and deletes; what was sent keeps its copy", async () => {
    const ready = await admin.get("/api/admin/organizer-templates/ready");
    expect(ready.status, ready.text).toBe(200);
    const individual = ready.body.find((t: { key: string }) => t.key === "individual");
    expect(individual.name).toBe("Individual tax organizer");
    const ids = individual.template.sections.flatMap((s: { questions: Array<{ id: string; type: string; sensitive: boolean }> }) => s.questions);
    expect(ids.find((q: { id: string }) => q.id === "w2_jobs").type).toBe("group");
    expect(ids.find((q: { id: string }) => q.id === "bank_account").sensitive).toBe(true);

    const copied = await admin.post("/api/admin/organizer-templates", { name: "Our organizer", template: individual.template });
    expect(copied.status, copied.text).toBe(201);
    const id = copied.body.id as string;
    const { user } = await client();
    const organizerId = await send(user.id, id);

    const edited = structuredClone(individual.template);
    edited.sections[0].questions.push({
      id: "crypto",
      type: "yes_no",
      label: "Did you sell crypto?",
      visible_if: { question: "moved", equals: true },
    });
    const put = await admin.put(`/api/admin/organizer-templates/${id}`, { name: "Our organizer 2027", template: edited });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ name: "Our organizer 2027", organizer_count: 1 });
    expect((await admin.get(`/api/admin/organizer-templates/${id}`)).body.template.sections[0].questions.at(-1).id).toBe("crypto");
    const sent = await admin.get(`/api/admin/organizers/${organizerId}`);
    expect(sent.body.template.sections[0].questions.some((q: { id: string }) => q.id === "crypto")).toBe(false);

    expect((await admin.delete(`/api/admin/organizer-templates/${id}`)).status).toBe(200);
    expect((await admin.get(`/api/admin/organizer-templates/${id}`)).status).toBe(404);
    expect((await admin.get("/api/admin/organizer-templates")).body.some((t: { id: string }) => t.id === id)).toBe(false);
    expect((await admin.post("/api/admin/organizers", { account_id: user.id, template_id: id, title: "Again" })).status).toBe(404);
    expect((await admin.get(`/api/admin/organizers/${organizerId}`)).status).toBe(200);
    const trail = await server.db.selectFrom("activity_events").select("action").where("target_id", "=", id).orderBy("id").execute();
    expect(trail.map((e) => e.action)).toEqual(["organizer_template.create", "organizer_template.update", "organizer_template.delete"]);
  });
});

describe("sending", () => {
  it("sends one (mail, trail) or many at once; a draft stays out of the client's sight until sent", async () => {
    const templateId = await template();
    const { user, api } = await client();
    const id = await send(user.id, templateId);
    const mail = await smtp.waitForMail(user.email, /^Tax organizer: 2026 organizer/);
    expect(mail.text).toContain("Thursday, April 1, 2027");
    const trail = await server.db.selectFrom("activity_events").select(["action", "account_id"]).where("target_id", "=", id).execute();
    expect(trail).toEqual([{ action: "organizer.send", account_id: user.id }]);
    const list = await api.get("/api/organizers");
    expect(list.body).toEqual([expect.objectContaining({ id, status: "sent", title: "2026 organizer", due_date: "2027-04-01", answered: 0 })]);

    const others = [await client("Ann"), await client("Bo")];
    const bulk = await admin.post("/api/admin/organizers", {
      account_ids: others.map((o) => o.user.id),
      template_id: templateId,
      title: "Bulk",
      draft: true,
    });
    expect(bulk.status, bulk.text).toBe(201);
    expect(bulk.body.organizers.map((o: { account_id: string; status: string }) => [o.account_id, o.status])).toEqual(
      others.map((o) => [o.user.id, "draft"]),
    );
    const draftId = bulk.body.organizers[0].id as string;
    expect((await others[0]!.api.get("/api/organizers")).body).toEqual([]);
    expect((await others[0]!.api.get(`/api/organizers/${draftId}`)).status).toBe(404);
    const sent = await admin.post(`/api/admin/organizers/${draftId}/send`);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.status).toBe("sent");
    expect((await admin.post(`/api/admin/organizers/${draftId}/send`)).status).toBe(409);
    expect((await others[0]!.api.get("/api/organizers")).body.map((o: { id: string }) => o.id)).toEqual([draftId]);

    const listed = await admin.get(`/api/admin/organizers?template_id=${templateId}&status=draft`);
    expect(listed.body.map((o: { id: string }) => o.id)).toEqual([bulk.body.organizers[1].id]);
    expect(
      (await admin.post("/api/admin/organizers", { account_id: user.id, account_ids: [user.id], template_id: templateId, title: "x" })).status,
    ).toBe(422);
    expect(
      (await admin.post("/api/admin/organizers", { account_id: user.id, template_id: templateId, title: "x", due_date: "2027-02-01" })).status,
    ).toBe(422);
  });
});

describe("answering", () => {
  it("applies conditions: required only when visible, hidden answers not kept, 422 naming what is missing", async () => {
    const templateId = await template();
    const { user, api } = await client();
    const id = await send(user.id, templateId);

    const missing = await api.post(`/api/organizers/${id}/submit`);
    expect(missing.status, missing.text).toBe(422);
    expect(missing.body.detail).toBe("Answer the required questions first: moved, w2_jobs, w2_files");

    let saved = await api.put(`/api/organizers/${id}/answers`, { answers: { moved: true, kids: ["Daycare"] } });
    expect(saved.status, saved.text).toBe(200);
    expect((await api.post(`/api/organizers/${id}/submit`)).body.detail).toBe(
      "Answer the required questions first: new_address, daycare_cost, w2_jobs, w2_files",
    );
    saved = await api.put(`/api/organizers/${id}/answers`, { answers: { new_address: "12 Elm St", daycare_cost: 1200.5 } });
    expect(answerOf(saved.body, "new_address")?.value).toBe("12 Elm St");

    // Hiding a question drops its answer; an answer to a question not asked is refused, never dropped (issue 48).
    saved = await api.put(`/api/organizers/${id}/answers`, { answers: { moved: false, kids: [] } });
    expect(saved.body.answers.map((a: Answer) => a.question_id).sort()).toEqual(["moved"]);
    const sneaky = await api.put(`/api/organizers/${id}/answers`, { answers: { new_address: "sneaky", notes: "kept?" } });
    expect(sneaky.status, sneaky.text).toBe(400);
    expect(sneaky.body.detail).toBe("Answer not saved: new_address (“New address”): not asked with these answers: it depends on “Did you move?”");
    // All or nothing: the other answer of that save is not kept either.
    const rows = await server.db.selectFrom("organizer_answers").select("question_id").where("organizer_id", "=", id).execute();
    expect(rows.map((r) => r.question_id)).toEqual(["moved"]);
    // Hidden by the same save's own answer: the question goes with its answer, which may be cleared (null) alongside.
    expect((await api.put(`/api/organizers/${id}/answers`, { answers: { moved: true, new_address: "1 Elm St" } })).status).toBe(200);
    expect((await api.put(`/api/organizers/${id}/answers`, { answers: { moved: false, new_address: null } })).status).toBe(200);
    expect((await api.put(`/api/organizers/${id}/answers`, { answers: { moved: false, new_address: "again" } })).status).toBe(400);

    for (const [answers, message] of [
      [{ moved: "yes" }, "Answer not saved: moved (“Did you move?”): must be true or false"],
      [
        { daycare_cost: "about 1200" },
        "Answer not saved: daycare_cost (“Daycare paid”): must be an amount in dollars and cents, like 1200 or 1200.50",
      ],
      [{ daycare_cost: 1.234 }, "Answer not saved: daycare_cost (“Daycare paid”): must be an amount with at most two digits of cents, like 1200.50"],
      [{ refund: "Cash" }, "Answer not saved: refund (“Refund”): must be one of its options"],
      [{ nope: 1 }, "Answer not saved: nope: not a question of this organizer"],
      [{ w2_files: ["x"] }, "Answer not saved: w2_files (“W-2 forms”): is a file question: upload its files with organizer_id and question_id"],
      [{ w2_jobs: [{ boss: "x" }] }, "Answer not saved: w2_jobs[0].boss (“One per employer”): is not a question of this group"],
      [
        { w2_jobs: [{ employer: "Acme" }, { wages: "52k" }] },
        "Answer not saved: w2_jobs[1].wages (“Wages”): must be an amount in dollars and cents, like 1200 or 1200.50",
      ],
      [{ w2_jobs: [{ $keep: 0 }] }, "Answer not saved: w2_jobs[0] (“One per employer”): keeps a saved entry that is not there (0 saved)"],
    ] as const) {
      const res = await api.put(`/api/organizers/${id}/answers`, { answers: { notes: "with it", ...answers } });
      expect(res.status, res.text).toBe(422);
      expect(res.body.detail).toBe(message);
    }
    expect(answerOf((await api.get(`/api/organizers/${id}`)).body, "notes")).toBeUndefined();
  });

  it("keeps a group's entries, requires their visible members and refuses answers to hidden ones", async () => {
    const templateId = await template();
    const { user, api } = await client();
    const id = await send(user.id, templateId);
    const hidden = await api.put(`/api/organizers/${id}/answers`, {
      answers: { moved: false, w2_jobs: [{ employer: "Acme", wages: 50000, left: false, left_on: "2026-05-01" }] },
    });
    expect(hidden.status, hidden.text).toBe(400);
    expect(hidden.body.detail).toBe("Answer not saved: w2_jobs[0].left_on (“Last day”): not asked with these answers: it depends on “Left the job?”");
    const saved = await api.put(`/api/organizers/${id}/answers`, {
      answers: {
        moved: false,
        w2_jobs: [
          { employer: "Acme", wages: 50000, left: false },
          { wages: 100, left: true },
        ],
      },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(answerOf(saved.body, "w2_jobs")?.value).toEqual([
      { employer: "Acme", wages: 50000, left: false },
      { wages: 100, left: true },
    ]);
    const submit = await api.post(`/api/organizers/${id}/submit`);
    expect(submit.body.detail).toBe("Answer the required questions first: w2_jobs[1].employer, w2_jobs[1].left_on, w2_files");
  });

  it("loses nothing when partial saves race each other (two people of one account, many saves at once)", async () => {
    const templateId = await template();
    const { user, api } = await client("Maria Garcia");
    const spouse = await createUser(server.db, { name: "Jose Garcia" });
    await server.db.insertInto("account_contacts").values({ account_id: user.id, user_id: spouse.id, role: "member" }).execute();
    const spouseApi = await loginClient(server.url, spouse);
    expect((await spouseApi.post("/api/accounts/switch", { account_id: user.id })).status).toBe(200);
    const id = await send(user.id, templateId);
    // new_address is asked only once moved is true, and a hidden question keeps no answer: its
    // condition is saved first, since requests from two connections may reach the server in any order.
    expect((await api.put(`/api/organizers/${id}/answers`, { answers: { moved: true } })).status).toBe(200);
    const saves = [
      spouseApi.put(`/api/organizers/${id}/answers`, { answers: { notes: "from Jose" } }),
      api.put(`/api/organizers/${id}/answers`, { answers: { kids: ["Dependents"] } }),
      spouseApi.put(`/api/organizers/${id}/answers`, { answers: { refund: "Check" } }),
      api.put(`/api/organizers/${id}/answers`, { answers: { w2_jobs: [{ employer: "Acme" }] } }),
      spouseApi.put(`/api/organizers/${id}/answers`, { answers: { new_address: "1 Main St" } }),
    ];
    for (let i = 0; i < 6; i++) saves.push(api.put(`/api/organizers/${id}/answers`, { answers: { notes: `draft ${i}` } }));
    const results = await Promise.all(saves);
    for (const res of results) expect(res.status, res.text).toBe(200);
    const read = await spouseApi.get(`/api/organizers/${id}`);
    const values = Object.fromEntries(read.body.answers.map((a: Answer) => [a.question_id, a.value]));
    expect(values).toMatchObject({ moved: true, kids: ["Dependents"], refund: "Check", w2_jobs: [{ employer: "Acme" }], new_address: "1 Main St" });
    expect(String(values.notes)).toMatch(/^(from Jose|draft \d)$/);
    // Each save of notes raised its version once.
    expect(answerOf(read.body, "notes")?.version).toBe(7);
  });

  it("submits (Inbox, mail to the firm, trail), refuses changes then, takes it back, and is reopened by the firm with a comment", async () => {
    const templateId = await template();
    const { user, api } = await client();
    const id = await send(user.id, templateId);
    await api.put(`/api/organizers/${id}/answers`, { answers: { moved: false, w2_jobs: [{ employer: "Acme" }] } });
    expect((await upload(api, { organizer_id: id, question_id: "w2_files" })).status).toBe(201);
    const submitted = await api.post(`/api/organizers/${id}/submit`);
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body.status).toBe("submitted");
    await smtp.waitForMail(FIRM_EMAIL, /^Submitted: 2026 organizer/);
    const inbox = await server.db.selectFrom("inbox_items").select(["kind", "actor_id"]).where("subject_id", "=", id).execute();
    expect(inbox).toEqual([{ kind: "organizer_submitted", actor_id: user.id }]);
    expect((await api.put(`/api/organizers/${id}/answers`, { answers: { notes: "late" } })).status).toBe(409);
    expect((await upload(api, { organizer_id: id, question_id: "w2_files" })).status).toBe(409);
    expect((await api.post(`/api/organizers/${id}/submit`)).status).toBe(409);

    const back = await api.post(`/api/organizers/${id}/unsubmit`);
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({ status: "sent", submitted_at: null });
    expect((await api.put(`/api/organizers/${id}/answers`, { answers: { notes: "late" } })).status).toBe(200);
    expect((await api.post(`/api/organizers/${id}/unsubmit`)).status).toBe(409);
    expect((await admin.post(`/api/admin/organizers/${id}/reopen`, { comment: "Which bank?" })).status).toBe(409);
    expect((await api.post(`/api/organizers/${id}/submit`)).status).toBe(200);

    const reopened = await admin.post(`/api/admin/organizers/${id}/reopen`, { comment: "The second W-2 is missing" });
    expect(reopened.status, reopened.text).toBe(200);
    expect(reopened.body).toMatchObject({ status: "reopened", reopen_comment: "The second W-2 is missing" });
    const mail = await smtp.waitForMail(user.email, /^Reopened: 2026 organizer/);
    expect(mail.text).not.toContain("second W-2");
    expect((await api.get(`/api/organizers/${id}`)).body).toMatchObject({ status: "reopened", reopen_comment: "The second W-2 is missing" });
    const trail = await server.db.selectFrom("activity_events").select("action").where("target_id", "=", id).orderBy("id").execute();
    expect(trail.map((e) => e.action)).toEqual(["organizer.send", "organizer.submit", "organizer.unsubmit", "organizer.submit", "organizer.reopen"]);
  });
});

describe("who reaches an organizer", () => {
  it("answers 404 for another account's organizer, on every client path and the upload", async () => {
    const templateId = await template();
    const owner = await client();
    const stranger = await client("Stranger");
    const id = await send(owner.user.id, templateId);
    expect((await stranger.api.get(`/api/organizers/${id}`)).status).toBe(404);
    expect((await stranger.api.put(`/api/organizers/${id}/answers`, { answers: { moved: true } })).status).toBe(404);
    expect((await stranger.api.post(`/api/organizers/${id}/submit`)).status).toBe(404);
    expect((await stranger.api.post(`/api/organizers/${id}/unsubmit`)).status).toBe(404);
    const res = await upload(stranger.api, { organizer_id: id, question_id: "w2_files" });
    expect(res.status, res.text).toBe(404);
    expect(await server.db.selectFrom("documents").select("id").where("account_id", "=", stranger.user.id).execute()).toEqual([]);
    expect((await stranger.api.get("/api/organizers")).body).toEqual([]);
  });

  it("lets staff with the requests right in, within their assigned accounts", async () => {
    const templateId = await template();
    const assigned = await client();
    const other = await client();
    const idAssigned = await send(assigned.user.id, templateId);
    const idOther = await send(other.user.id, templateId);
    const staff = await createStaffMember(server.db, "staff", ["requests"]);
    await server.db.insertInto("account_assignees").values({ account_id: assigned.user.id, user_id: staff.id }).execute();
    const staffApi = await loginClient(server.url, staff, "admin");
    expect((await staffApi.get(`/api/admin/organizers/${idAssigned}`)).status).toBe(200);
    expect((await staffApi.get(`/api/admin/organizers/${idOther}`)).status).toBe(404);
    expect((await staffApi.post("/api/admin/organizers", { account_id: other.user.id, template_id: templateId, title: "x" })).status).toBe(404);
    const ids = (await staffApi.get("/api/admin/organizers")).body.map((o: { id: string }) => o.id);
    expect(ids).toContain(idAssigned);
    expect(ids).not.toContain(idOther);
    const noRight = await loginClient(server.url, await createStaffMember(server.db, "staff", ["documents", "all_clients"]), "admin");
    const refused = await noRight.get(`/api/admin/organizers/${idAssigned}`);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe("You need the requests right for this");
  });
});

describe("sensitive answers", () => {
  it("are stored sealed, masked for the client (even just typed), in full for the firm", async () => {
    const templateId = await template();
    const { user, api } = await client();
    const id = await send(user.id, templateId);
    const saved = await api.put(`/api/organizers/${id}/answers`, { answers: { refund: "Deposit", account_number: "000123456789" } });
    expect(saved.status, saved.text).toBe(200);
    expect(answerOf(saved.body, "account_number")).toMatchObject({ value: null, masked: "•••• 6789" });
    expect(saved.text).not.toContain("000123456789");
    const row = await server.db
      .selectFrom("organizer_answers")
      .select(["value", "sealed"])
      .where("organizer_id", "=", id)
      .where("question_id", "=", "account_number")
      .executeTakeFirstOrThrow();
    expect(row.value).toBeNull();
    expect(row.sealed).toMatch(/^v1:/);
    expect(row.sealed).not.toContain("123456789");
    const firm = await admin.get(`/api/admin/organizers/${id}`);
    expect(answerOf(firm.body, "account_number")).toMatchObject({ value: "000123456789", masked: null, sensitive: true });

    // A sealed answer that no longer opens (the key changed) reads as none, logged, and breaks no read.
    await server.db
      .updateTable("organizer_answers")
      .set({ sealed: "v1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" })
      .where("organizer_id", "=", id)
      .where("question_id", "=", "account_number")
      .execute();
    expect(answerOf((await api.get(`/api/organizers/${id}`)).body, "account_number")?.masked).toBe("••••");
    expect(answerOf((await admin.get(`/api/admin/organizers/${id}`)).body, "account_number")?.value).toBeNull();
    expect(server.logs.some((line) => line.includes("a sealed organizer answer does not open"))).toBe(true);
  });

  it("seal a sensitive group whole (the ready template's dependents): the client reads how many entries", async () => {
    const ready = (await admin.get("/api/admin/organizer-templates/ready")).body[0];
    const templateId = await template("Ready copy", ready.template);
    const { user, api } = await client();
    const id = await send(user.id, templateId);
    const dependents = [
      { dependent_name: "Ada Ellis", dependent_birth_date: "2019-04-02", dependent_relationship: "Daughter", dependent_ssn: "123-45-6789" },
      { dependent_name: "Bo Ellis", dependent_birth_date: "2021-09-12", dependent_relationship: "Son", dependent_ssn: "987-65-4321" },
    ];
    const saved = await api.put(`/api/organizers/${id}/answers`, { answers: { has_dependents: true, dependents } });
    expect(saved.status, saved.text).toBe(200);
    expect(answerOf(saved.body, "dependents")).toMatchObject({ value: null, masked: "2 hidden" });
    expect(saved.text).not.toContain("123-45-6789");
    expect(answerOf((await admin.get(`/api/admin/organizers/${id}`)).body, "dependents")?.value).toEqual(dependents);
  });
  it("keep a sensitive group's saved entries when someone who cannot read them adds one ({ $keep: n })", async () => {
    const ready = (await admin.get("/api/admin/organizer-templates/ready")).body[0];
    const templateId = await template("Ready copy", ready.template);
    const { user, api } = await client("Maria Garcia");
    const spouse = await createUser(server.db, { name: "Jose Garcia" });
    await server.db.insertInto("account_contacts").values({ account_id: user.id, user_id: spouse.id, role: "member" }).execute();
    const spouseApi = await loginClient(server.url, spouse);
    expect((await spouseApi.post("/api/accounts/switch", { account_id: user.id })).status).toBe(200);
    const id = await send(user.id, templateId);
    const ada = {
      dependent_name: "Ada Garcia",
      dependent_birth_date: "2019-04-02",
      dependent_relationship: "Daughter",
      dependent_ssn: "123-45-6789",
    };
    const bo = { dependent_name: "Bo Garcia", dependent_birth_date: "2021-09-12", dependent_relationship: "Son", dependent_ssn: "987-65-4321" };
    expect((await api.put(`/api/organizers/${id}/answers`, { answers: { has_dependents: true, dependents: [ada] } })).status).toBe(200);
    // Jose reads "1 hidden", never Ada's entry; adding Bo keeps hers.
    expect(answerOf((await spouseApi.get(`/api/organizers/${id}`)).body, "dependents")).toMatchObject({ value: null, masked: "1 hidden" });
    const added = await spouseApi.put(`/api/organizers/${id}/answers`, { answers: { dependents: [{ $keep: 0 }, bo] } });
    expect(added.status, added.text).toBe(200);
    expect(answerOf(added.body, "dependents")).toMatchObject({ value: null, masked: "2 hidden" });
    expect(added.text).not.toContain("123-45-6789");
    expect(answerOf((await admin.get(`/api/admin/organizers/${id}`)).body, "dependents")?.value).toEqual([ada, bo]);
    // Typing on in Bo's entry sends it again with the same kept entry before it.
    const typed = await spouseApi.put(`/api/organizers/${id}/answers`, {
      answers: { dependents: [{ $keep: 0 }, { ...bo, dependent_name: "Bo R. Garcia" }] },
    });
    expect(typed.status, typed.text).toBe(200);
    expect(answerOf((await admin.get(`/api/admin/organizers/${id}`)).body, "dependents")?.value).toEqual([
      ada,
      { ...bo, dependent_name: "Bo R. Garcia" },
    ]);
  });
});

describe("last year's answers", () => {
  it("pre-fill from the account's last submitted organizer of the template, marked until confirmed or changed", async () => {
    const templateId = await template();
    const { user, api } = await client();
    const lastYear = await send(user.id, templateId, "2025 organizer");
    await api.put(`/api/organizers/${lastYear}/answers`, {
      answers: { moved: false, w2_jobs: [{ employer: "Acme" }], notes: "same as ever", refund: "Deposit", account_number: "987654321" },
    });
    expect((await upload(api, { organizer_id: lastYear, question_id: "w2_files" })).status).toBe(201);
    expect((await api.post(`/api/organizers/${lastYear}/submit`)).status).toBe(200);

    const id = await send(user.id, templateId, "2026 organizer");
    const read = await api.get(`/api/organizers/${id}`);
    const marked = read.body.answers.filter((a: Answer) => a.from_last_year).map((a: Answer) => a.question_id);
    expect(marked.sort()).toEqual(["account_number", "moved", "notes", "refund", "w2_jobs"]);
    expect(answerOf(read.body, "account_number")?.masked).toBe("•••• 4321");
    expect(read.body.documents).toEqual({});

    const saved = await api.put(`/api/organizers/${id}/answers`, { answers: { moved: false, notes: "new job" } });
    expect(answerOf(saved.body, "moved")).toMatchObject({ value: false, from_last_year: false });
    expect(answerOf(saved.body, "notes")).toMatchObject({ value: "new job", from_last_year: false });
    expect(answerOf(saved.body, "refund")?.from_last_year).toBe(true);
    expect(answerOf((await admin.get(`/api/admin/organizers/${id}`)).body, "account_number")?.value).toBe("987654321");
  });
});

describe("file answers", () => {
  it("upload into the organizer's folder, count for required file questions and to the quota", async () => {
    const templateId = await template();
    const { user, api } = await client();
    const id = await send(user.id, templateId, "Taxes 2026");
    const first = await upload(api, { organizer_id: id, question_id: "w2_files" }, 64, "w2-acme.txt");
    expect(first.status, first.text).toBe(201);
    const second = await upload(api, { organizer_id: id, question_id: "w2_files" }, 64, "w2-beta.txt");
    expect(second.status, second.text).toBe(201);
    const folder = await server.db.selectFrom("folders").select(["id", "name"]).where("account_id", "=", user.id).execute();
    expect(folder).toEqual([{ id: first.body.folder_id, name: "Taxes 2026" }]);
    expect(second.body.folder_id).toBe(first.body.folder_id);
    const read = await api.get(`/api/organizers/${id}`);
    expect(read.body.documents.w2_files.map((d: { original_filename: string }) => d.original_filename)).toEqual(["w2-acme.txt", "w2-beta.txt"]);
    const trail = await server.db.selectFrom("activity_events").select("detail").where("target_id", "=", first.body.id).executeTakeFirstOrThrow();
    expect(trail.detail).toMatchObject({ filename: "w2-acme.txt", folder: "Taxes 2026", organizer: "Taxes 2026" });

    expect((await upload(api, { organizer_id: id, question_id: "notes" })).status).toBe(422);
    expect((await upload(api, { organizer_id: id, question_id: "nope" })).status).toBe(404);
    expect((await upload(api, { organizer_id: id })).status).toBe(422);

    // A trashed file no longer answers the question.
    await api.put(`/api/organizers/${id}/answers`, { answers: { moved: false, w2_jobs: [{ employer: "Acme" }] } });
    expect((await api.delete(`/api/documents/${first.body.id}`)).status).toBe(200);
    expect((await api.delete(`/api/documents/${second.body.id}`)).status).toBe(200);
    expect((await api.post(`/api/organizers/${id}/submit`)).body.detail).toBe("Answer the required questions first: w2_files");

    await server.db.updateTable("accounts").set({ storage_quota_mb: 1 }).where("id", "=", user.id).execute();
    expect((await upload(api, { organizer_id: id, question_id: "w2_files" }, 700 * 1024)).status).toBe(201);
    const over = await upload(api, { organizer_id: id, question_id: "w2_files" }, 400 * 1024);
    expect(over.status, over.text).toBe(413);
    expect(over.body.detail).toBe("Storage quota exceeded");
  });
});

describe("one file for the organizer and the request (issue 48)", () => {
  const sendFile = (api: ApiClient, fields: Record<string, string>, text: string, name: string) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append("file", new Blob([text], { type: "text/plain" }), name);
    return api.request("POST", "/api/documents/upload", { body: form });
  };

  it("counts a file already sent for the organizer for the request's item, without a second copy; taking it off the item leaves the organizer's", async () => {
    const templateId = await template();
    const { user, api } = await client("Greta Lindqvist");
    const id = await send(user.id, templateId, "2026 organizer");
    const asked = await admin.post("/api/admin/requests", {
      account_id: user.id,
      title: "2026 tax documents",
      items: [{ title: "2026 W-2" }, { title: "Property tax bill" }],
    });
    expect(asked.status, asked.text).toBe(201);
    const request = asked.body as { id: string; items: Array<{ id: string; title: string }> };
    const w2Item = request.items[0]!.id;

    const forOrganizer = await sendFile(api, { organizer_id: id, question_id: "w2_files" }, "W-2 Acme Tools 2026", "w2-acme.txt");
    expect(forOrganizer.status, forOrganizer.text).toBe(201);
    // The same bytes, from the phone's other copy, for the request's W-2 item.
    const forRequest = await sendFile(api, { request_id: request.id, request_item_id: w2Item }, "W-2 Acme Tools 2026", "IMG_2231.txt");
    expect(forRequest.status, forRequest.text).toBe(201);
    expect(forRequest.body.id).toBe(forOrganizer.body.id);
    const rows = await server.db
      .selectFrom("documents")
      .select(["id", "request_id", "request_item_id", "organizer_id", "organizer_question_id"])
      .where("account_id", "=", user.id)
      .execute();
    expect(rows).toEqual([
      { id: forOrganizer.body.id, request_id: request.id, request_item_id: w2Item, organizer_id: id, organizer_question_id: "w2_files" },
    ]);
    const firm = (
      (await admin.get(`/api/admin/requests?q=Greta`)).body as Array<{ id: string; items: Array<{ title: string; status: string }> }>
    ).find((r) => r.id === request.id)!;
    expect(firm.items.map((i) => [i.title, i.status])).toEqual([
      ["2026 W-2", "uploaded"],
      ["Property tax bill", "open"],
    ]);
    // Not news twice: the firm's Inbox has the one upload.
    const uploads = await server.db.selectFrom("inbox_items").select("id").where("kind", "=", "upload").where("account_id", "=", user.id).execute();
    expect(uploads).toHaveLength(1);

    // Other bytes are another document, as before.
    const other = await sendFile(api, { request_id: request.id, request_item_id: request.items[1]!.id }, "Property tax 2026", "tax-bill.txt");
    expect(other.body.id).not.toBe(forOrganizer.body.id);

    // Taken off the item (the wrong item, say), it stays the organizer's answer, not in the trash.
    const removed = await api.delete(`/api/requests/${request.id}/items/${w2Item}/documents/${forOrganizer.body.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.removed_to_trash).toBe(false);
    expect((await api.get(`/api/organizers/${id}`)).body.documents.w2_files.map((d: { id: string }) => d.id)).toEqual([forOrganizer.body.id]);
    const trashed = await api.delete(`/api/requests/${request.id}/items/${request.items[1]!.id}/documents/${other.body.id}`);
    expect(trashed.body.removed_to_trash).toBe(true);
  });
});

describe("the firm's review", () => {
  it("marks answers reviewed (a change by the client clears the mark), downloads a readable PDF and a CSV across accounts", async () => {
    const templateId = await template("Review season");
    const { user, api } = await client("Rowan Ellis");
    const id = await send(user.id, templateId, "Ellis 2026");
    await api.put(`/api/organizers/${id}/answers`, {
      answers: {
        moved: true,
        new_address: "12 Elm St, Springfield",
        w2_jobs: [{ employer: "Acme Tools", wages: 52000.5 }],
        refund: "Deposit",
        account_number: "000123456789",
      },
    });
    expect((await upload(api, { organizer_id: id, question_id: "w2_files" }, 64, "acme-w2.txt")).status).toBe(201);

    let marked = await admin.put(`/api/admin/organizers/${id}/answers/new_address/reviewed`, { reviewed: true });
    expect(marked.status, marked.text).toBe(200);
    expect(answerOf(marked.body, "new_address")).toMatchObject({ reviewed: true });
    marked = await admin.put(`/api/admin/organizers/${id}/answers/w2_files/reviewed`, { reviewed: true });
    expect(answerOf(marked.body, "w2_files")?.reviewed).toBe(true);
    expect((await admin.put(`/api/admin/organizers/${id}/answers/nope/reviewed`, { reviewed: true })).status).toBe(404);
    expect(answerOf((await api.get(`/api/organizers/${id}`)).body, "new_address")?.reviewed).toBe(true);
    // The client reads the mark on a file question too (its answer is its documents, no value).
    expect(answerOf((await api.get(`/api/organizers/${id}`)).body, "w2_files")).toMatchObject({ value: null, reviewed: true });
    await api.put(`/api/organizers/${id}/answers`, { answers: { new_address: "14 Elm St, Springfield" } });
    expect(answerOf((await admin.get(`/api/admin/organizers/${id}`)).body, "new_address")?.reviewed).toBe(false);

    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const pdf = await fetch(`${server.url}/api/admin/organizers/${id}/pdf`, { headers: { Cookie: cookie } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    for (const expected of [
      "Ellis 2026",
      "Did you move?",
      "Yes",
      "14 Elm St, Springfield",
      "Acme Tools",
      "$52,000.50",
      "acme-w2.txt",
      "000123456789",
    ]) {
      expect(text).toContain(expected);
    }
    // Hidden questions are not in it.
    expect(text).not.toContain("Daycare paid");
    expect((await fetch(`${server.url}/api/admin/organizers/${randomUUID()}/pdf`, { headers: { Cookie: cookie } })).status).toBe(404);

    const second = await client("Ann Other");
    const otherId = await send(second.user.id, templateId, "Other 2026");
    await second.api.put(`/api/organizers/${otherId}/answers`, { answers: { moved: false, notes: "=cmd()" } });
    const csv = await fetch(`${server.url}/api/admin/organizer-templates/${templateId}/answers.csv`, { headers: { Cookie: cookie } });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "Client,Organizer,Status,Submitted at,Did you move?,New address,Which apply?,Daycare paid,One per employer,W-2 forms,Notes,Refund,Account number",
    );
    expect(lines).toHaveLength(3);
    const ellis = lines.find((line) => line.includes("Ellis 2026"));
    expect(ellis).toContain('"14 Elm St, Springfield"');
    expect(ellis).toContain("Employer: Acme Tools; Wages: 52000.5");
    expect(ellis).toContain("acme-w2.txt");
    expect(ellis).toContain("•••• 6789");
    expect(ellis).not.toContain("000123456789");
    expect(lines.find((line) => line.includes("Other 2026"))).toContain("'=cmd()");
  });
});

describe("the due-date reminder", () => {
  it("mails the client once, 2 days before the due date (the hourly job); a draft, which the client does not see, gets none", async () => {
    const templateId = await template("Reminder season");
    const waiting = await client("Wes Waiting");
    const drafted = await client("Dee Draft");
    await send(waiting.user.id, templateId, "Waiting 2026", { due_date: "2027-03-10" });
    await send(drafted.user.id, templateId, "Draft 2026", { due_date: "2027-03-10", draft: true });
    const runJob = async () => {
      const jobId = await server.deps.jobs.send("organizer-reminders", {});
      await expect
        .poll(async () => (await server.deps.jobs.boss.findJobs("organizer-reminders", { id: jobId! }))[0]?.state, {
          timeout: 10_000,
        })
        .toBe("completed");
    };
    const reminders = (email: string) => smtp.messages.filter((m) => m.to.includes(email) && m.subject.startsWith("Reminder:"));

    // 17:00 UTC is daytime in Chicago: 5 days before, too early; 2 days before, the reminder; again, nothing more.
    server.clock.set(new Date("2027-03-05T17:00:00Z"));
    await runJob();
    server.clock.set(new Date("2027-03-08T17:00:00Z"));
    await runJob();
    const mail = await smtp.waitForMail(waiting.user.email, /Reminder: Waiting 2026 is due Wednesday, March 10, 2027/);
    expect(mail.text).toContain("What you have answered so far is saved");
    await runJob();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(reminders(waiting.user.email)).toHaveLength(1);
    expect(reminders(drafted.user.email)).toHaveLength(0);
  });
});

describe("the PDF", () => {
  it("writes answers and names as written in Latin, Vietnamese, Greek and Cyrillic; what its font cannot draw becomes ?", async () => {
    const templateId = await template("Scripts season");
    const { user, api } = await client("José Müller 李");
    await server.db.updateTable("accounts").set({ name: "José Müller 李" }).where("id", "=", user.id).execute();
    const id = await send(user.id, templateId, "Müller 2026 — 李");
    const saved = await api.put(`/api/organizers/${id}/answers`, {
      answers: {
        moved: true,
        new_address: "Straße 5, Zürich — 北京市 🏠",
        w2_jobs: [{ employer: "Café Ørsted 株式会社" }, { employer: "Nguyễn Thị Đặng, Łódź" }],
        notes: "Ελλάδα ok, Москва",
      },
    });
    expect(saved.status, saved.text).toBe(200);
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const pdf = await fetch(`${server.url}/api/admin/organizers/${id}/pdf`, { headers: { Cookie: cookie } });
    expect(pdf.status).toBe(200);
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    for (const expected of [
      "Müller 2026 — ?",
      "José Müller ?",
      "Straße 5, Zürich — ??? ?",
      "Café Ørsted ????",
      "Nguyễn Thị Đặng, Łódź",
      "Ελλάδα ok, Москва",
    ]) {
      expect(text).toContain(expected);
    }
  });
});

async function pdfText(data: Uint8Array): Promise<string> {
  const { getDocument, VerbosityLevel } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  // Errors only: the standard fonts' glyph files are not needed to read the text.
  const doc = await getDocument({ data, useSystemFonts: false, isEvalSupported: false, verbosity: VerbosityLevel.ERRORS }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join("\n"));
  }
  await doc.destroy();
  return pages.join("\n");
}
