import { redirect } from "@remix-run/node";

// Public route: any unknown path goes to /404.
export async function loader() {
  return redirect("/404");
}

// Public route: a POST to an unknown path goes there too.
export async function action() {
  return redirect("/404");
}
