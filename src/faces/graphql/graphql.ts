/**
 * The one graphql instance of the admin face. Pothos and graphql-yoga load graphql's CommonJS entry
 * (Node resolves its "main"), while vite (vitest) resolves a bare "graphql" import to the ESM "module"
 * entry: two instances, and "Cannot use GraphQLEnumType from another module or realm". Importing the
 * CommonJS entry by path gives every runtime and the tests the same instance. Import graphql from here.
 */
export {
  BREAK,
  GraphQLError,
  Kind,
  ProvidedRequiredArgumentsRule,
  ValuesOfCorrectTypeRule,
  validate,
  parse,
  valueFromASTUntyped,
  visit,
  printSchema,
  lexicographicSortSchema,
  type ASTNode,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
  type ASTVisitor,
  type SelectionSetNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from "graphql/index.js";
