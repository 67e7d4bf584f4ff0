public enum ApplierPlaceholder {}
