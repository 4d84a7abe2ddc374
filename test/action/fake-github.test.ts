// The fake GitHub must refuse what GitHub refuses, or the other tests prove nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeGitHub } from "./fake-github.js";
import { INSTALLATION_TOKEN } from "./helpers.js";

let fake: FakeGitHub;

beforeAll(async () => {
  fake = await new FakeGitHub("acme/models").start();
});
afterAll(async () => {
  await fake.close();
});

async function send(
  method: string,
  path: string,
  body?: unknown,
  token: string | null = INSTALLATION_TOKEN,
): Promise<{ status: number; data: unknown }> {
  fake.violations.length = 0;
  const headers: Record<string, string> = { accept: "application/vnd.github+json" };
  if (token !== null) headers["authorization"] = `token ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json; charset=utf-8";
  const res = await fetch(`${fake.baseUrl}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, data: await res.json() };
}

const SHA = "a".repeat(40);
const okRun = {
  name: "gate",
  head_sha: SHA,
  status: "completed",
  conclusion: "success",
  output: { title: "t", summary: "s" },
};

describe("fake GitHub validates requests against the OpenAPI description", () => {
  it("accepts a valid check run and stores it", async () => {
    const res = await send("POST", "/repos/acme/models/check-runs", okRun);
    expect(res.status).toBe(201);
    expect(fake.violations).toEqual([]);
    expect(fake.checkRuns.at(-1)?.conclusion).toBe("success");
  });

  it("refuses a missing required field", async () => {
    const res = await send("POST", "/repos/acme/models/check-runs", { name: "gate" });
    expect(res.status).toBe(422);
    expect(fake.violations.join("\n")).toContain("must have required property 'head_sha'");
  });

  it("refuses an unknown conclusion", async () => {
    await send("POST", "/repos/acme/models/check-runs", { ...okRun, conclusion: "maybe" });
    expect(fake.violations.join("\n")).toContain("must be equal to one of the allowed values");
  });

  it("refuses a 65,536-character check run text and a 65,536-character summary", async () => {
    await send("POST", "/repos/acme/models/check-runs", {
      ...okRun,
      output: { title: "t", summary: "s", text: "x".repeat(65_536) },
    });
    expect(fake.violations.join("\n")).toContain("/output/text must NOT have more than 65535 characters");
    await send("POST", "/repos/acme/models/check-runs", {
      ...okRun,
      output: { title: "t", summary: "s".repeat(65_536) },
    });
    expect(fake.violations.join("\n")).toContain("/output/summary must NOT have more than 65535 characters");
    await send("POST", "/repos/acme/models/check-runs", {
      ...okRun,
      output: { title: "t", summary: "s".repeat(65_535) },
    });
    expect(fake.violations).toEqual([]);
  });

  it("refuses 51 annotations in one request", async () => {
    const annotation = {
      path: "p.yaml",
      start_line: 1,
      end_line: 1,
      annotation_level: "failure",
      message: "m",
    };
    await send("POST", "/repos/acme/models/check-runs", {
      ...okRun,
      output: { title: "t", summary: "s", annotations: Array.from({ length: 51 }, () => annotation) },
    });
    expect(fake.violations.join("\n")).toContain("/output/annotations must NOT have more than 50 items");
  });

  it("refuses a completed check run without a conclusion", async () => {
    await send("POST", "/repos/acme/models/check-runs", { name: "gate", head_sha: SHA, status: "completed" });
    expect(fake.violations.join("\n")).toContain("a completed check run needs a conclusion");
  });

  it("refuses a comment body over 65,536 characters", async () => {
    await send("POST", "/repos/acme/models/issues/7/comments", { body: "x".repeat(65_537) });
    expect(fake.violations.join("\n")).toContain("body is 65537 characters (max 65536)");
  });

  it("refuses an unknown route, an unknown query parameter and a mistyped one", async () => {
    expect((await send("GET", "/repos/acme/models/pulls")).status).toBe(404);
    expect(fake.violations.join("\n")).toContain("no such operation");
    await send("GET", "/repos/acme/models/issues/7/comments?per_page=100&sort=created");
    expect(fake.violations.join("\n")).toContain("unknown query parameter sort");
    await send("GET", "/repos/acme/models/issues/7/comments?per_page=lots");
    expect(fake.violations.join("\n")).toContain("query parameter per_page");
    await send("GET", "/repos/acme/models/issues/seven/comments");
    expect(fake.violations.join("\n")).toContain("path parameter issue_number");
  });

  it("refuses a request without credentials", async () => {
    expect((await send("GET", "/repos/acme/models/issues/7/comments", undefined, null)).status).toBe(401);
    expect(fake.violations.join("\n")).toContain("unauthenticated");
  });

  it("answers GET /user with 403 for an installation token, as GitHub does", async () => {
    const res = await send("GET", "/user");
    expect(res).toEqual({ status: 403, data: { message: "Resource not accessible by integration" } });
    expect(fake.violations).toEqual([]);
  });

  it("serves files at commits and answers configured faults", async () => {
    fake.setFile(SHA, "gate/policy.yaml", "owner: x\n");
    const res = await send("GET", `/repos/acme/models/contents/gate%2Fpolicy.yaml?ref=${SHA}`);
    expect(res.status).toBe(200);
    expect(Buffer.from((res.data as { content: string }).content, "base64").toString("utf8")).toBe(
      "owner: x\n",
    );
    expect(
      (await send("GET", `/repos/acme/models/contents/gate/policy.yaml?ref=${"b".repeat(40)}`)).status,
    ).toBe(404);
    fake.fail("repos/get-content", { status: 502, times: 1 });
    expect((await send("GET", `/repos/acme/models/contents/gate/policy.yaml?ref=${SHA}`)).status).toBe(502);
    expect((await send("GET", `/repos/acme/models/contents/gate/policy.yaml?ref=${SHA}`)).status).toBe(200);
    expect(fake.violations).toEqual([]);
  });
});

describe("fake GitHub answers GraphQL, validated against GitHub's published GraphQL schema", () => {
  const graphql = (query: unknown, extra: Record<string, unknown> = {}) =>
    send("POST", "/graphql", { query, ...extra });

  it("executes a valid viewer query as the token's identity", async () => {
    const res = await graphql("query { viewer { login databaseId } }");
    expect(res).toEqual({
      status: 200,
      data: { data: { viewer: { login: "github-actions[bot]", databaseId: 41898282 } } },
    });
    expect(fake.violations).toEqual([]);
  });

  it("refuses a field the schema does not have, a wrong argument and a syntax error", async () => {
    const res = await graphql("query { viewer { login botness } }");
    expect(res.status).toBe(200);
    expect((res.data as { errors: { message: string }[] }).errors[0]?.message).toBe(
      'Cannot query field "botness" on type "User".',
    );
    expect(fake.violations).toEqual(['POST /graphql: GraphQL: Cannot query field "botness" on type "User".']);
    await graphql('query { repository(owner: "acme") { id } }');
    expect(fake.violations.join("\n")).toContain('argument "name" of type "String!" is required');
    await graphql("query { viewer { login }");
    expect(fake.violations.join("\n")).toContain("GraphQL syntax: Syntax Error");
  });

  it("refuses a body without a query string, and an unknown token", async () => {
    await graphql(42);
    expect(fake.violations.join("\n")).toContain("GraphQL body must be {query, variables?}");
    expect((await send("POST", "/graphql", { query: "query { viewer { login } }" }, null)).status).toBe(401);
    expect(fake.violations.join("\n")).toContain("unauthenticated GraphQL request");
  });

  it("flags a valid query asking for what the fake cannot answer", async () => {
    await graphql("query { viewer { login email } }");
    expect(fake.violations.join("\n")).toContain("GraphQL asked for what the fake cannot answer");
  });

  it("answers configured faults: an errors answer (200) or an HTTP status", async () => {
    fake.fail("graphql", { status: 200, graphqlErrorType: "FORBIDDEN", times: 1 });
    expect(await graphql("query { viewer { login } }")).toEqual({
      status: 200,
      data: {
        data: null,
        errors: [{ type: "FORBIDDEN", message: "Resource not accessible by integration" }],
      },
    });
    fake.fail("graphql", { status: 502, times: 1 });
    expect((await graphql("query { viewer { login } }")).status).toBe(502);
    expect(fake.violations).toEqual([]);
    fake.clearFaults();
  });
});

describe("fake GitHub deletes comments", () => {
  it("deletes the token's own comment (204) and refuses someone else's (403)", async () => {
    const mine = fake.addComment(7, "mine");
    const theirs = fake.addComment(7, "theirs", { login: "alice", id: 7, type: "User", installation: false });
    const del = (id: number) =>
      fetch(`${fake.baseUrl}/repos/acme/models/issues/comments/${id}`, {
        method: "DELETE",
        headers: { authorization: `token ${INSTALLATION_TOKEN}` },
      });
    expect((await del(mine.id)).status).toBe(204);
    expect((await del(theirs.id)).status).toBe(403);
    expect((await del(mine.id)).status).toBe(404);
    expect(fake.comments.map((c) => c.id)).toEqual([theirs.id]);
    expect(fake.violations).toEqual([]);
  });
});
