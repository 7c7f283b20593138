/** PS, GD and CS get names (docs/domain.md, "Gates and challenges"); anything else shows as it is (AI). */
export function categoryLabel(category: string): string {
  if (category === "PS") return "Problem Solving";
  if (category === "GD") return "Design";
  if (category === "CS") return "Cyber Security";
  return category;
}
