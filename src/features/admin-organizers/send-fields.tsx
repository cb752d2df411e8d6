import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Select } from "@/components/ui/select.tsx";

type TemplateChoice = { id: string; name: string };

type OrganizerSendFieldsProps = {
  templates: TemplateChoice[];
  /** The template picked (the first one until the firm picks another). */
  chosen: TemplateChoice | undefined;
  onTemplate: (id: string) => void;
  title: string;
  onTitle: (title: string) => void;
  due: string;
  onDue: (due: string) => void;
  titleError?: string;
};

/** What sending an organizer asks, to one client or to many: the template, a title (the template's name when empty) and an optional due date. */
export function OrganizerSendFields({ templates, chosen, onTemplate, title, onTitle, due, onDue, titleError }: OrganizerSendFieldsProps) {
  return (
    <div className="grid items-start gap-4 sm:grid-cols-3">
      <FormField label="Template">
        <Select value={chosen?.id ?? ""} onChange={(e) => onTemplate(e.target.value)}>
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField label="Title" hint={`Leave empty for “${chosen?.name ?? ""}”`} error={titleError}>
        <Input value={title} maxLength={200} onChange={(e) => onTitle(e.target.value)} />
      </FormField>
      <FormField label="Due date (optional)">
        <Input type="date" value={due} onChange={(e) => onDue(e.target.value)} />
      </FormField>
    </div>
  );
}
