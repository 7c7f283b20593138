/** Spec 2.7 / DOMAIN.md: PS, GD and CS get names; anything else shows as it is (AI). */
export function categoryLabel(category: string): string {
  if (category === "PS") return "Problem Solving";
  if (category === "GD") return "Design";
  if (category === "CS") return "Cyber Security";
  return category;
}
