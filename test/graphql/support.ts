import type { TestServer } from "../support/server.ts";

export type GraphQLResponse<T = any> = {
  status: number;
  data?: T;
  errors?: { message: string; path?: string[]; extensions?: { code?: string; details?: any } }[];
};

/** Posts a GraphQL document to /graphql (with the admin key unless `key` says otherwise). */
export async function gql<T = any>(
  server: TestServer,
  query: string,
  variables?: Record<string, unknown>,
  key?: string | null,
): Promise<GraphQLResponse<T>> {
  const response = await server.api("/graphql", { method: "POST", json: { query, variables }, key });
  const body = await response.json();
  return { status: response.status, ...body };
}

/** Like gql, but fails on any GraphQL error and returns the data. */
export async function gqlData<T = any>(
  server: TestServer,
  query: string,
  variables?: Record<string, unknown>,
  key?: string | null,
): Promise<T> {
  const result = await gql<T>(server, query, variables, key);
  if (result.status !== 200 || result.errors) {
    throw new Error(`GraphQL failed (${result.status}): ${JSON.stringify(result.errors)}`);
  }
  return result.data!;
}
