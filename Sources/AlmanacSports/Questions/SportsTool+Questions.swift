public import AlmanacCore

extension SportsTool {
    /// Reads questions about leagues, teams, named events and athletes (``SportsQuestionReader``).
    public var questionReader: (any QuestionReader)? { SportsQuestionReader(schema: schema) }
}
