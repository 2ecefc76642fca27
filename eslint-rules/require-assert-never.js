// A switch over a union of literal types (a discriminated union's `kind`, a string union) must end in
// `default: assertNever(x)` (source/model/assert-never.ts). The type checker already makes every kind named
// (switch-exhaustiveness-check); the default makes a value that slipped past the types (a message from another
// thread, a cast) fail loudly where it arrives instead of being silently skipped.
import ts from 'typescript';

/** @type {import('eslint').Rule.RuleModule} */
export const requireAssertNever = {
	meta: {
		type: 'problem',
		docs: {description: 'require `default: assertNever(x)` in every switch over a union of literal types'},
		messages: {missing: 'This switch is over a union ({{type}}): end it with `default: assertNever(...)` (source/model/assert-never.ts).'},
		schema: [],
	},
	create(context) {
		const services = context.sourceCode.parserServices;
		if (!services?.program) return {};
		const checker = services.program.getTypeChecker();
		const isLiteral = type => type.isLiteral() || (type.flags & (ts.TypeFlags.BooleanLiteral | ts.TypeFlags.EnumLiteral)) !== 0;
		return {
			SwitchStatement(node) {
				const type = services.getTypeAtLocation(node.discriminant);
				if (!type.isUnion() || !type.types.every(isLiteral)) return;
				const fallback = node.cases.find(clause => clause.test === null);
				if (fallback && /\bassertNever\(/.test(context.sourceCode.getText(fallback))) return;
				context.report({node: node.discriminant, messageId: 'missing', data: {type: checker.typeToString(type).slice(0, 80)}});
			},
		};
	},
};
