import { useState } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card.tsx";
import { type Entry, FileField, GroupField, PlainField } from "@/components/organizer/question-field.tsx";
import { visibleIds } from "@/lib/organizer-rules.ts";
import type { Template } from "@server/domains/organizers/schemas.ts";

/**
 * The template as the client will see it, with the client's own question pieces: answers typed here
 * show and hide questions as the conditions say, and are kept nowhere.
 */
export function TemplatePreview({ template }: { template: Template }) {
  const [values, setValues] = useState<Record<string, unknown>>({});
  const visible = visibleIds(template, values);
  const change = (id: string, value: unknown) =>
    setValues((current) => {
      const next = { ...current };
      if (value === null || value === undefined || value === "") delete next[id];
      else next[id] = value;
      return next;
    });
  return (
    // As wide as the client's page (src/app/routes/organizer.tsx).
    <div className="mx-auto grid w-full max-w-3xl min-w-0 gap-4 sm:gap-6" aria-label="Preview as the client sees it" role="region">
      <p className="rounded-md bg-muted px-3 py-2 text-sm text-muted-foreground">
        Preview: try answers to see the conditions work. Nothing you type here is saved, and files cannot be uploaded.
      </p>
      {template.sections.map((section, index) => {
        const shown = section.questions.filter((q) => visible.has(q.id));
        if (shown.length === 0) return null;
        const headingId = `preview-section-${index}`;
        return (
          <Card key={index} role="region" aria-labelledby={headingId} className="min-w-0">
            <CardHeader>
              <CardTitle asChild>
                <h3 id={headingId}>{section.title || "Untitled section"}</h3>
              </CardTitle>
              {section.description && <CardDescription>{section.description}</CardDescription>}
            </CardHeader>
            <CardContent className="grid gap-6">
              {shown.map((question) => (
                <div key={question.id} className="grid min-w-0 gap-2">
                  {question.type === "file" ? (
                    <FileField question={question} documents={[]} uploading={false} onUpload={() => undefined} disabled />
                  ) : question.type === "group" ? (
                    <GroupField
                      group={question}
                      entries={Array.isArray(values[question.id]) ? (values[question.id] as Entry[]) : []}
                      values={values}
                      visible={visible}
                      errors={new Map()}
                      disabled={false}
                      onChange={(entries) => change(question.id, entries.length === 0 ? null : entries)}
                    />
                  ) : (
                    <PlainField
                      question={question}
                      path={question.id}
                      value={values[question.id]}
                      disabled={false}
                      onChange={(value) => change(question.id, value)}
                    />
                  )}
                </div>
              ))}
            </CardContent>
          </Card>
        );
      })}
    </div>
  );
}
