import AlmanacCore
import Testing

@testable import AlmanacBrief

/// The schema and the reader spell each parameter name once (BriefParameter).
@Suite("brief: parameter names")
struct BriefKeysTests {
    @Test("the schema's parameters are BriefParameter's cases, in order")
    func schemaNames() {
        #expect(BriefTool(sources: []).schema.parameters.map(\.name) == BriefParameter.allCases.map(\.rawValue))
    }
}
