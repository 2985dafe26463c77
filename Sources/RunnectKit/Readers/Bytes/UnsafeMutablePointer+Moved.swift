extension UnsafeMutablePointer {
    /// A new allocation of `capacity` elements that holds this one's first `count`, moved there;
    /// this allocation is freed. How the readers' raw buffers grow.
    func moved(count: Int, toCapacity capacity: Int) -> UnsafeMutablePointer<Pointee> {
        let bigger = UnsafeMutablePointer<Pointee>.allocate(capacity: capacity)
        bigger.moveInitialize(from: self, count: count)
        deallocate()
        return bigger
    }
}
