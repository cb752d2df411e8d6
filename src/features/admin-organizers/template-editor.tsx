import { useEffect, useRef, useState } from "react";
import { ArrowLeft, Eye, Pencil, Plus, Save, Trash2, Undo2 } from "lucide-react";
import { TRPCClientError } from "@trpc/client";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { focusMoveButton, MoveButtons, moveButtonId } from "@/components/ui/move-buttons.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { trpc } from "@/lib/trpc.ts";
import type { Question, TemplateOutput } from "@server/domains/organizers/schemas.ts";
import { labelInputId, QuestionRow } from "./question-editor.tsx";
import { TemplatePreview } from "./template-preview.tsx";
import {
  allIds,
  type Draft,
  type DraftSection,
  earlierQuestions,
  issuePlace,
  move,
  newQuestion,
  newSection,
  toDraft,
  toTemplate,
} from "./template-draft.ts";

/** The first issue's path of a refused save (tRPC's error data carries them: server/trpc/init.ts). */
function issuePath(err: unknown): string[] {
  if (!(err instanceof TRPCClientError)) return [];
  const issues = (err.data as { issues?: Array<{ path: string[] }> } | undefined)?.issues;
  return issues?.[0]?.path ?? [];
}

/**
 * The firm's template editor: its name, its sections and their questions (add, move up and down,
 * edit, remove), conditions on earlier answers, and a preview as the client sees it. Saved whole
 * with PUT /admin/organizer-templates/:id; what templateSchema refuses is shown as the server says,
 * with where it is. Organizers already sent keep their own copy.
 */
export function TemplateEditor({ template, onClose }: { template: TemplateOutput; onClose: () => void }) {
  const utils = trpc.useUtils();
  const save = trpc.admin.organizers.updateTemplate.useMutation();
  const [draft, setDraft] = useState<Draft>(() => toDraft(template.name, template.template));
  const [saved, setSaved] = useState(() => JSON.stringify({ name: template.name, template: template.template }));
  const [mode, setMode] = useState<"edit" | "preview">("edit");
  const [problem, setProblem] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  /** The control to focus once React has drawn the change (the moved row's button, a new question's label). */
  const focusNext = useRef<string | null>(null);

  const current = toTemplate(draft);
  const dirty = JSON.stringify({ name: draft.name, template: current }) !== saved;
  const taken = allIds(draft);

  useEffect(() => {
    const id = focusNext.current;
    if (!id) return;
    focusNext.current = null;
    focusMoveButton(id);
  });

  // Closing the tab or reloading with unsaved changes asks first (the browser's own prompt).
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const toggle = (id: string) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const setSections = (sections: DraftSection[]) => setDraft((d) => ({ ...d, sections }));
  const updateSection = (si: number, changes: Partial<DraftSection>) =>
    setSections(draft.sections.map((s, i) => (i === si ? { ...s, ...changes } : s)));
  const setQuestions = (si: number, questions: Question[]) => updateSection(si, { questions });

  const onSave = async () => {
    setProblem(null);
    // What was sent is what is saved (the server's copy may order keys differently): the editor is clean again.
    const sent = JSON.stringify({ name: draft.name, template: current });
    try {
      const result = await save.mutateAsync({ id: template.id, name: draft.name, template: current });
      utils.admin.organizers.template.setData({ id: template.id }, result);
      await utils.admin.organizers.templates.invalidate();
      setSaved(sent);
      toast.success(`“${result.name}” saved`);
    } catch (err) {
      const place = issuePlace(issuePath(err), draft);
      setProblem(`${place ? `${place}: ` : ""}${errorDetail(err) ?? "Saving the template failed"}`);
    }
  };

  const back = (
    <Button variant="ghost" size="sm" className="w-fit">
      <ArrowLeft aria-hidden="true" />
      All templates
    </Button>
  );

  return (
    <section aria-labelledby="template-editor-heading" className="grid gap-4">
      {dirty ? (
        <ConfirmAction
          trigger={back}
          title="Leave without saving?"
          question="Your changes to this template are not saved."
          confirmLabel="Leave without saving"
          cancelLabel="Keep editing"
          onConfirm={onClose}
        />
      ) : (
        <Button variant="ghost" size="sm" className="w-fit" onClick={onClose}>
          <ArrowLeft aria-hidden="true" />
          All templates
        </Button>
      )}
      <div className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6">
        <div className="grid gap-1">
          <h2 id="template-editor-heading" className="text-xl font-semibold break-words">
            {draft.name.trim() || "Untitled template"}
          </h2>
          <p className="text-sm text-muted-foreground">
            {template.organizer_count > 0
              ? `Sent ${template.organizer_count === 1 ? "once" : `${template.organizer_count} times`}: those keep the questions they were sent with; changes apply to what you send from now on.`
              : "Not sent yet."}
          </p>
        </div>
        <FormField label="Template name" required>
          <Input value={draft.name} maxLength={200} onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))} />
        </FormField>
        <div role="group" aria-label="Editor view" className="inline-flex w-fit rounded-md border bg-card p-0.5">
          <Button variant={mode === "edit" ? "secondary" : "ghost"} size="sm" aria-pressed={mode === "edit"} onClick={() => setMode("edit")}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <Button variant={mode === "preview" ? "secondary" : "ghost"} size="sm" aria-pressed={mode === "preview"} onClick={() => setMode("preview")}>
            <Eye aria-hidden="true" />
            Preview
          </Button>
        </div>
      </div>

      {mode === "preview" ? (
        <TemplatePreview template={current} />
      ) : (
        <>
          {draft.sections.map((section, si) => (
            <SectionEditor
              key={section.key}
              section={section}
              index={si}
              count={draft.sections.length}
              onChange={(changes) => updateSection(si, changes)}
              onMove={(by) => {
                setSections(move(draft.sections, si, by));
                focusNext.current = moveButtonId(section.key, by);
              }}
              onRemove={() => setSections(draft.sections.filter((_, i) => i !== si))}
              onAddQuestion={() => {
                const question = newQuestion(taken);
                setQuestions(si, [...section.questions, question]);
                setExpanded((open) => new Set(open).add(question.id));
                focusNext.current = labelInputId(question.id);
              }}
            >
              {section.questions.map((question, qi) => (
                <QuestionRow
                  key={question.id}
                  question={question}
                  taken={taken}
                  expandedIds={expanded}
                  onToggleId={toggle}
                  onMoved={(id) => (focusNext.current = id)}
                  onChange={(next) =>
                    setQuestions(
                      si,
                      section.questions.map((q, i) => (i === qi ? next : q)),
                    )
                  }
                  place={{
                    number: qi + 1,
                    first: qi === 0,
                    last: qi === section.questions.length - 1,
                    onMove: (by) => {
                      setQuestions(si, move(section.questions, qi, by));
                      focusNext.current = moveButtonId(question.id, by);
                    },
                    onRemove: () =>
                      setQuestions(
                        si,
                        section.questions.filter((_, i) => i !== qi),
                      ),
                    expanded: expanded.has(question.id),
                    onToggle: () => toggle(question.id),
                    candidates: earlierQuestions(draft, si, qi),
                  }}
                />
              ))}
            </SectionEditor>
          ))}
          <Button
            variant="outline"
            className="w-fit"
            onClick={() => {
              const section = newSection(taken);
              setSections([...draft.sections, section]);
              focusNext.current = `section-title-${section.key}`;
            }}
          >
            <Plus aria-hidden="true" />
            Add a section
          </Button>
        </>
      )}

      <div className="sticky bottom-0 z-10 grid gap-2 rounded-xl border bg-card p-3 shadow-sm sm:flex sm:flex-wrap sm:items-center sm:justify-between sm:p-4">
        <div className="grid min-w-0 gap-1">
          <p role="status" className="text-sm text-muted-foreground">
            {dirty ? "Unsaved changes" : "All changes saved"}
          </p>
          <FormAlert message={problem} />
        </div>
        <div className="flex flex-wrap gap-2">
          {dirty && (
            <Button
              variant="ghost"
              onClick={() => {
                const last = JSON.parse(saved) as { name: string; template: TemplateOutput["template"] };
                setDraft(toDraft(last.name, last.template));
                setProblem(null);
              }}
            >
              <Undo2 aria-hidden="true" />
              Discard changes
            </Button>
          )}
          <Button variant="accent" disabled={save.isPending || !dirty} onClick={() => void onSave()}>
            <Save aria-hidden="true" />
            {save.isPending ? "Saving…" : "Save template"}
          </Button>
        </div>
      </div>
    </section>
  );
}

type SectionEditorProps = {
  section: DraftSection;
  index: number;
  count: number;
  onChange: (changes: Partial<DraftSection>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  onAddQuestion: () => void;
  children: React.ReactNode;
};

function SectionEditor({ section, index, count, onChange, onMove, onRemove, onAddQuestion, children }: SectionEditorProps) {
  const headingId = `section-heading-${section.key}`;
  const name = section.title.trim() ? `“${section.title.trim()}”` : `section ${index + 1}`;
  return (
    <section aria-labelledby={headingId} className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="min-w-0 text-lg font-semibold break-words">
          Section {index + 1}
          {section.title.trim() && <span className="font-normal text-muted-foreground">: {section.title.trim()}</span>}
        </h3>
        <div className="flex items-center gap-1">
          <MoveButtons id={section.key} what={`section ${name}`} first={index === 0} last={index === count - 1} onMove={onMove} />
          <ConfirmAction
            trigger={
              <Button variant="ghost-destructive" size="icon-sm" aria-label={`Remove section ${name}`} disabled={count === 1}>
                <Trash2 aria-hidden="true" />
              </Button>
            }
            title="Remove this section?"
            question={`Section ${name} and its ${section.questions.length === 1 ? "question" : `${section.questions.length} questions`} will be removed when you save.`}
            confirmLabel="Remove section"
            onConfirm={onRemove}
          />
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Section title" id={`section-title-${section.key}`} required>
          <Input value={section.title} maxLength={200} onChange={(e) => onChange({ title: e.target.value })} />
        </FormField>
        <FormField label="Description (optional)">
          <Textarea
            rows={2}
            value={section.description ?? ""}
            maxLength={2000}
            onChange={(e) => onChange({ description: e.target.value || undefined })}
          />
        </FormField>
      </div>
      <ol aria-label={`Questions of section ${index + 1}`} className="grid divide-y rounded-lg border">
        {children}
      </ol>
      <Button variant="outline" size="sm" className="w-fit" onClick={onAddQuestion}>
        <Plus aria-hidden="true" />
        Add a question
      </Button>
    </section>
  );
}
