extension Baker {
    /// Bakes a model from a document, adding the line and column of the
    /// offending value to any error.
    public func bake<Model: Decodable>(
        _ type: Model.Type, from document: Document, recipe: Recipe? = nil
    ) throws(EasyBakeError) -> Model {
        do {
            return try bake(type, from: document.tree, recipe: recipe)
        } catch {
            throw document.locating(error)
        }
    }
}
