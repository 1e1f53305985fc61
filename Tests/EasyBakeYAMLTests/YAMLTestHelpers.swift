import EasyBake
import EasyBakeYAML

/// Reads YAML text into a tree with `options`.
func yaml(_ text: String, _ options: YAMLReadingOptions = .init()) throws(EasyBakeError) -> Ingredients {
    try YAMLFormat(options: options).read(.text(text))
}

/// The error reading `text` throws, or `nil` when it reads.
func yamlError(_ text: String, _ options: YAMLReadingOptions = .init()) -> EasyBakeError? {
    do {
        _ = try yaml(text, options)
        return nil
    } catch {
        return error
    }
}

/// Options with a different expansion budget or depth.
func options(maximumExpansion: Int? = nil, maximumDepth: Int? = nil) -> YAMLReadingOptions {
    var options = YAMLReadingOptions()
    if let maximumExpansion { options.limits.maximumExpansion = maximumExpansion }
    if let maximumDepth { options.limits.maximumDepth = maximumDepth }
    return options
}

/// The error reading `input` throws, or `nil` when it reads.
func yamlError(input: IngredientInput, _ options: YAMLReadingOptions = .init()) -> EasyBakeError? {
    do {
        _ = try YAMLFormat(options: options).read(input)
        return nil
    } catch {
        return error
    }
}
