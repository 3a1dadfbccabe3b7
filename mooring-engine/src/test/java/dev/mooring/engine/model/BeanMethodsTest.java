package dev.mooring.engine.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mooring.api.CacheTransform;
import dev.mooring.api.Index;
import dev.mooring.api.Watch;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which of a bean's methods are its watches, indexes and transforms. */
class BeanMethodsTest {

    static class Parent {
        @Watch
        public void inherited() {
        }
    }

    static class Bean extends Parent {
        @Watch
        public void watch() {
        }

        @Index("by")
        public void index() {
        }

        @CacheTransform
        public void transform() {
        }

        public void plain() {
        }
    }

    @Test
    void eachAnnotationPicksItsMethodsAndABeanDeclaresItsOwn() throws Exception {
        BeanMethods methods = BeanMethods.of(Bean.class);
        assertEquals(List.of(Bean.class.getMethod("watch")), methods.watches(), "the parent's method is not declared by the bean");
        assertEquals(List.of(Bean.class.getMethod("index")), methods.indexes());
        assertEquals(List.of(Bean.class.getMethod("transform")), methods.transforms());
        assertFalse(methods.isEmpty());
        Method inherited = Parent.class.getMethod("inherited");
        assertEquals(List.of(inherited), BeanMethods.of(List.of(inherited, Bean.class.getMethod("plain"))).watches(), "from the methods given");
        assertTrue(BeanMethods.of(Object.class).isEmpty());
        assertTrue(BeanMethods.NONE.isEmpty());
    }
}
