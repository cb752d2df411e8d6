// The templates the portal ships (docs/decisions.md, "Organizers"): built in, not rows, so every
// firm gets the current version and none is seeded into a database. The firm reads them at
// GET /api/admin/organizer-templates/ready and copies one (POST /api/admin/organizer-templates)
// to adjust it; organizers are only ever sent from the firm's own templates.
import type { Template } from "./schemas.ts";

const individual: Template = {
  sections: [
    {
      title: "Life changes",
      description: "Tell us what changed since last year.",
      questions: [
        {
          id: "filing_status",
          type: "choice",
          label: "Filing status",
          required: true,
          sensitive: false,
          options: ["Single", "Married filing jointly", "Married filing separately", "Head of household", "Qualifying surviving spouse"],
        },
        { id: "married_this_year", type: "yes_no", label: "Did you marry, divorce or separate this year?", required: true, sensitive: false },
        {
          id: "marriage_date",
          type: "date",
          label: "Date of the change",
          required: true,
          sensitive: false,
          visible_if: { question: "married_this_year", equals: true },
        },
        { id: "moved", type: "yes_no", label: "Did you move this year?", required: true, sensitive: false },
        {
          id: "new_address",
          type: "long_text",
          label: "Your new address",
          required: true,
          sensitive: false,
          visible_if: { question: "moved", equals: true },
        },
        { id: "home_sold", type: "yes_no", label: "Did you sell a home this year?", required: false, sensitive: false },
        {
          id: "closing_statement",
          type: "file",
          label: "Closing statement of the sale",
          required: true,
          sensitive: false,
          visible_if: { question: "home_sold", equals: true },
        },
      ],
    },
    {
      title: "Dependents",
      questions: [
        { id: "has_dependents", type: "yes_no", label: "Do you have dependents?", required: true, sensitive: false },
        {
          id: "dependents",
          type: "group",
          label: "One entry per dependent",
          required: true,
          sensitive: true,
          max_entries: 20,
          visible_if: { question: "has_dependents", equals: true },
          questions: [
            { id: "dependent_name", type: "text", label: "Full name", required: true, sensitive: false },
            { id: "dependent_birth_date", type: "date", label: "Date of birth", required: true, sensitive: false },
            {
              id: "dependent_relationship",
              type: "choice",
              label: "Relationship",
              required: true,
              sensitive: false,
              options: ["Son", "Daughter", "Parent", "Other relative", "Other"],
            },
            { id: "dependent_ssn", type: "text", label: "Social Security number", required: true, sensitive: false },
            { id: "dependent_childcare", type: "money", label: "Child care paid for them", required: false, sensitive: false },
          ],
        },
      ],
    },
    {
      title: "Income",
      questions: [
        {
          id: "income_kinds",
          type: "multi_choice",
          label: "Which income did you have?",
          required: true,
          sensitive: false,
          options: [
            "Wages (W-2)",
            "Interest or dividends (1099-INT, 1099-DIV)",
            "Self-employment (1099-NEC)",
            "Retirement (1099-R)",
            "Unemployment (1099-G)",
            "Rental income",
          ],
        },
        {
          id: "w2_jobs",
          type: "group",
          label: "One entry per employer",
          required: true,
          sensitive: false,
          max_entries: 20,
          visible_if: { question: "income_kinds", includes: "Wages (W-2)" },
          questions: [
            { id: "employer", type: "text", label: "Employer", required: true, sensitive: false },
            { id: "wages", type: "money", label: "Wages (box 1)", required: false, sensitive: false },
            { id: "still_employed", type: "yes_no", label: "Still working there?", required: false, sensitive: false },
          ],
        },
        {
          id: "w2_files",
          type: "file",
          label: "Your W-2 forms",
          help: "One file per employer.",
          required: true,
          sensitive: false,
          visible_if: { question: "income_kinds", includes: "Wages (W-2)" },
        },
        { id: "forms_1099", type: "file", label: "Your 1099 forms", required: false, sensitive: false },
        {
          id: "self_employment_expenses",
          type: "money",
          label: "Business expenses",
          required: false,
          sensitive: false,
          visible_if: { question: "income_kinds", includes: "Self-employment (1099-NEC)" },
        },
      ],
    },
    {
      title: "Deductions",
      questions: [
        { id: "mortgage", type: "yes_no", label: "Did you pay mortgage interest?", required: true, sensitive: false },
        {
          id: "forms_1098",
          type: "file",
          label: "Your 1098 forms",
          required: true,
          sensitive: false,
          visible_if: { question: "mortgage", equals: true },
        },
        { id: "charity_cash", type: "money", label: "Cash given to charity", required: false, sensitive: false },
        { id: "medical_expenses", type: "money", label: "Medical expenses you paid", required: false, sensitive: false },
        { id: "estimated_payments", type: "money", label: "Estimated tax payments made", required: false, sensitive: false },
      ],
    },
    {
      title: "Your refund",
      questions: [
        {
          id: "refund_method",
          type: "choice",
          label: "How would you like a refund?",
          required: true,
          sensitive: false,
          options: ["Direct deposit", "Paper check", "Apply to next year"],
        },
        {
          id: "bank_routing",
          type: "text",
          label: "Routing number",
          required: true,
          sensitive: true,
          visible_if: { question: "refund_method", equals: "Direct deposit" },
        },
        {
          id: "bank_account",
          type: "text",
          label: "Account number",
          required: true,
          sensitive: true,
          visible_if: { question: "refund_method", equals: "Direct deposit" },
        },
        { id: "notes", type: "long_text", label: "Anything else we should know?", required: false, sensitive: false },
      ],
    },
  ],
};

export const READY_TEMPLATES: ReadonlyArray<{ key: string; name: string; template: Template }> = [
  { key: "individual", name: "Individual tax organizer", template: individual },
];
