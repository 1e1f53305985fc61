import Foundation

/// An immutable model with an identity, the way ZCREasyBake's models work:
/// two values with the same `id` are the same entity, possibly at two
/// moments; updating one with new ingredients yields the entity's next state.
///
/// Conforming types get equality and hashing by identifier; use
/// ``isEqual(toIngredients:recipe:baker:)`` or ``hasSameContents(as:)`` to
/// compare contents.
///
/// ```swift
/// struct User: Dough {
///     let id: Int
///     let name: String
///     let unreadMessages: Int
///     static var bakingRecipe: Recipe? { get throws { try recipe.get() } }
///     static let recipe = Result { try Recipe(mapping: ["id": "user_id", "name": "name", "unreadMessages": "stats.unread"]) }
/// }
/// let user = try Baker().bake(User.self, from: json)
/// let next = try user.updated(with: ["stats": ["unread": 3]])
/// ```
public protocol Dough: Bakeable, Encodable, Identifiable, Hashable, Sendable where ID: Sendable {}

extension Dough {
    /// Values are the same entity when their identifiers are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }

    /// Hashes the identifier only, to agree with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Whether `other` holds the same values, not merely the same identifier.
    public func hasSameContents(as other: Self) -> Bool {
        guard let mine = try? Ingredients(encoding: self), let theirs = try? Ingredients(encoding: other) else {
            return false
        }
        return mine == theirs
    }

    /// Whether baking `ingredients` through `recipe` gives a model with the
    /// same contents as this one (same identifier and same values).
    public func isEqual(toIngredients ingredients: Ingredients, recipe: Recipe? = nil, baker: Baker = Baker()) -> Bool {
        guard let other = try? baker.bake(Self.self, from: ingredients, recipe: recipe) else { return false }
        return other.id == id && hasSameContents(as: other)
    }

    /// The differences between this model's values and `other`'s, by path
    /// in this model's decomposition through `recipe`.
    public func difference(to other: Self, recipe: Recipe? = nil, baker: Baker = Baker()) throws(EasyBakeError)
        -> [IngredientDifference]
    {
        try baker.decompose(self, recipe: recipe).difference(to: baker.decompose(other, recipe: recipe))
    }

    /// This entity's next state: its decomposition with `ingredients` merged
    /// over it (dictionaries key by key, anything else replaced), baked again.
    ///
    /// When nothing changes, returns `self` and posts nothing. Otherwise
    /// posts ``DoughUpdates/didUpdateNotification`` and this type's
    /// ``didUpdateNotification`` with the identifier and the new value in the
    /// user info (``DoughUpdates/identifierKey``, ``DoughUpdates/updatedKey``),
    /// and yields the new value to every ``updates(of:)`` sequence.
    ///
    /// ```swift
    /// let read = try user.updated(with: ["unread_messages": 0])
    /// read.id == user.id   // true: the same entity, in its next state
    /// ```
    ///
    /// - Parameters:
    ///   - ingredients: new ingredients, shaped as `recipe` reads them; paths
    ///     they leave out keep their values, null clears. A top-level key the
    ///     payload does not have but that names a property the recipe maps
    ///     (`email`, mapped from `contact.email`) sets that property's path.
    ///   - recipe: the recipe; by default the type's ``Bakeable/bakingRecipe``.
    ///   - baker: the baker that decomposes and bakes again; its
    ///     ``Baker/Options/implicitKeyMatching`` also decides whether
    ///     `unread_messages` in `ingredients` replaces `unreadMessages`.
    ///   - notificationCenter: where the notifications are posted.
    /// - Throws: ``EasyBakeError/Code/identifierMismatch`` when the result
    ///   has another identifier, or any baking error.
    public func updated(
        with ingredients: Ingredients, recipe: Recipe? = nil, baker: Baker = Baker(),
        notificationCenter: NotificationCenter = .default
    ) throws(EasyBakeError) -> Self {
        // An update starts from the model's own values: decomposed with no
        // transformer, so that a one-way transformer (no reverse, or a
        // reverse that cannot choose, like a lookup with two keys for one
        // value) is not applied to its own output again on the way back.
        let typeRecipe = if let recipe { recipe } else { try Self.checkedBakingRecipe() }
        let current = try baker.decompose(self, recipe: typeRecipe?.withoutTransformers)
        // The update in the payload's shape: keys that name properties the
        // recipe maps elsewhere go to their paths.
        var update = ingredients
        if let typeRecipe, case .dictionary(let changes) = ingredients {
            var placed = Ingredients.dictionary(IngredientDictionary())
            var rest = ContiguousArray<IngredientDictionary.Element>()
            for (key, change) in changes {
                if let path = typeRecipe.payloadPath(forKey: key, in: current) {
                    placed = placed.setting(change, at: path)
                } else {
                    rest.append((key, change))
                }
            }
            update = placed.merging(.dictionary(IngredientDictionary(uniqueEntries: rest)))
        }
        let merged = current.merging(update, matchingKeysImplicitly: baker.options.implicitKeyMatching)
        // The properties the update names are transformed as in any bake;
        // the others come back as they are.
        let updateRecipe = typeRecipe.map { Self.recipe($0, forUpdate: update) }
        let next = try baker.bake(Self.self, from: merged, recipe: updateRecipe)
        guard next.id == id else {
            throw EasyBakeError(
                .identifierMismatch,
                "an update of \(Self.self) \(String(describing: id).debugDescription) carries the identifier \(String(describing: next.id).debugDescription)",
                baking: .init(
                    modelType: String(describing: Self.self), property: "id",
                    expected: String(describing: id), found: String(describing: next.id)))
        }
        if hasSameContents(as: next) { return self }
        DoughUpdates.post(next, center: notificationCenter)
        return next
    }

    /// `recipe` with transformers kept for the entries `update` gives a value
    /// for, and removed elsewhere (in nested recipes too, unless the update
    /// gives the nested value).
    private static func recipe(_ recipe: Recipe, forUpdate update: Ingredients) -> Recipe {
        recipe.keepingTransformers(
            where: { update.resolve($0.path) != nil },
            nested: { property, nested in
                guard let path = recipe.entry(for: property)?.path, update.resolve(path) != nil else {
                    return nested.withoutTransformers
                }
                return nested
            })
    }

    /// The name of the notification posted when a value of this type is
    /// updated.
    public static var didUpdateNotification: Notification.Name {
        Notification.Name("EasyBake.didUpdate.\(String(reflecting: Self.self))")
    }

    /// The updates of values of this type, as they happen, from the moment
    /// of the call; pass an identifier to follow one entity.
    public static func updates(of id: ID? = nil) -> AsyncStream<Self> {
        DoughUpdates.stream(of: Self.self, id: id)
    }
}

/// Where updates of ``Dough`` models are announced.
public enum DoughUpdates {
    /// Posted for every updated model of any type.
    public static let didUpdateNotification = Notification.Name("EasyBake.didUpdate")
    /// The user-info key of the updated model's identifier.
    public static let identifierKey = "identifier"
    /// The user-info key of the updated model.
    public static let updatedKey = "updated"

    /// The continuations of live `updates()` streams, by model type.
    private static let subscribers = Locked([ObjectIdentifier: [UUID: @Sendable (any Sendable) -> Void]]())

    static func post<Model: Dough>(_ model: Model, center: NotificationCenter) {
        let info: [String: Any] = [identifierKey: model.id, updatedKey: model]
        center.post(name: Model.didUpdateNotification, object: nil, userInfo: info)
        center.post(name: didUpdateNotification, object: nil, userInfo: info)
        let deliver = subscribers.withLock { $0[ObjectIdentifier(Model.self)].map { Array($0.values) } ?? [] }
        for send in deliver { send(model) }
    }

    static func stream<Model: Dough>(of type: Model.Type, id: Model.ID?) -> AsyncStream<Model> {
        let (stream, continuation) = AsyncStream.makeStream(of: Model.self, bufferingPolicy: .unbounded)
        let token = UUID()
        let key = ObjectIdentifier(Model.self)
        subscribers.withLock { subscribers in
            subscribers[key, default: [:]][token] = { value in
                guard let model = value as? Model, id == nil || model.id == id else { return }
                continuation.yield(model)
            }
        }
        continuation.onTermination = { _ in
            _ = subscribers.withLock { $0[key]?.removeValue(forKey: token) }
        }
        return stream
    }
}
