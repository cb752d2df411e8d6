import { File, FileArchive, FileImage, FileSpreadsheet, FileText, type LucideIcon } from "lucide-react";
import { splitExtension } from "@/lib/format.ts";

const ICONS: Array<[RegExp, LucideIcon]> = [
  [/^\.(pdf|docx?|odt|rtf|txt|md)$/i, FileText],
  [/^\.(xlsx?|ods|csv|qbo|qbw|ofx)$/i, FileSpreadsheet],
  [/^\.(png|jpe?g|gif|webp|heic|tiff?|bmp|svg)$/i, FileImage],
  [/^\.(zip|7z|rar|gz|tar)$/i, FileArchive],
];

/** An icon for the kind of file its name says it is (by extension); a plain page for anything else. */
export function FileIcon({ name, className }: { name: string; className?: string }) {
  const [, extension] = splitExtension(name);
  const Icon = ICONS.find(([pattern]) => pattern.test(extension))?.[1] ?? File;
  return <Icon aria-hidden="true" className={className} />;
}
