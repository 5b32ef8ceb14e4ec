import Foundation

/// The few seconds after a destructive action in the teacher's window in
/// which "Undo" takes it back. One action is pending at a time: offering
/// the next one commits the earlier (its toast is replaced, so its Undo is
/// gone). An action is either already done and taken back by Undo (a class
/// is archived at once and restored), or held and done only when the window
/// closes (a word list is deleted once its Undo is no longer offered); the
/// caller decides which by what it does on `.commit` and `.takeBack`.
///
/// Times are passed in, so the decisions are tested without waiting. A
/// clock set back does not stretch the window to hours: seen from a time
/// more than `duration` before its deadline, it counts as closed (the
/// action stands, which loses nothing).
public struct UndoWindow<Action> {
    /// What the caller does now.
    public enum Decision {
        /// Nothing is pending (or the window is still open).
        case none
        /// The action stands: do what is left of it (if anything).
        case commit(Action)
        /// Undo was pressed in time: reverse the action.
        case takeBack(Action)
    }

    public struct Pending {
        public var action: Action
        /// Counts offers, so a toast's timer can tell whether it is still the current one.
        public var serial: Int
        public var deadline: Date
    }

    public static var defaultDuration: TimeInterval { 6 }

    public let duration: TimeInterval
    public private(set) var pending: Pending?
    private var serials = 0

    public init(duration: TimeInterval = Self.defaultDuration) {
        self.duration = max(0, duration)
    }

    /// Offers Undo for `action` from `now`; returns what becomes of the
    /// action pending before it (committed, since its Undo disappears).
    public mutating func offer(_ action: Action, now: Date) -> Decision {
        let earlier = finish()
        serials += 1
        pending = Pending(action: action, serial: serials, deadline: now.addingTimeInterval(duration))
        return earlier
    }

    /// Undo was pressed: in time, the action is taken back; too late (the
    /// timer had not run yet), it stands.
    public mutating func undo(now: Date) -> Decision {
        guard let current = pending else { return .none }
        pending = nil
        return isOpen(current, now: now) ? .takeBack(current.action) : .commit(current.action)
    }

    /// The timer fired or time passed: once the window has closed the
    /// action stands.
    public mutating func tick(now: Date) -> Decision {
        guard let current = pending else { return .none }
        if isOpen(current, now: now) { return .none }
        pending = nil
        return .commit(current.action)
    }

    /// The window or the app closes: whatever is pending stands now.
    public mutating func finish() -> Decision {
        guard let current = pending else { return .none }
        pending = nil
        return .commit(current.action)
    }

    /// Whole seconds left to press Undo (for the toast), nil when nothing is pending.
    public func secondsLeft(now: Date) -> Int? {
        guard let current = pending else { return nil }
        guard isOpen(current, now: now) else { return 0 }
        return Int(current.deadline.timeIntervalSince(now).rounded(.up))
    }

    private func isOpen(_ pending: Pending, now: Date) -> Bool {
        now < pending.deadline && pending.deadline.timeIntervalSince(now) <= duration
    }
}

extension UndoWindow: Sendable where Action: Sendable {}
extension UndoWindow.Decision: Sendable where Action: Sendable {}
extension UndoWindow.Pending: Sendable where Action: Sendable {}
