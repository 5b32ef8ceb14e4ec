/// How many teacher accounts a school server makes: more than any school
/// has, and a bound on what the admin's account can make it store. The
/// teacher's window reads it to say why a new teacher was refused.
public enum SchoolAccountLimits {
    public static let maxTeachers = 500
}
